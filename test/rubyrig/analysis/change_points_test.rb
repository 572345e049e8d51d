require "test_helper"

# Change points of a series of runs: a step found where it is and decided by the comparison of the
# runs around it, a flat series without one, a break that cuts the series and is never a change, a
# candidate smaller than the equivalence margin kept but flagged, and E-divisive's divergence against
# its definition.
class ChangePointsTest < Minitest::Test
  CP = Rubyrig::Analysis::ChangePoints
  ED = CP::EDivisive

  # runs of 5 batches around level(run) with lognormal noise of sd `sd` (a seeded generator).
  def series(runs, sd: 0.02, seed: 3, batches: 5, &level)
    rng = Random.new(seed)
    Array.new(runs) do |r|
      Array.new(batches) { level.call(r) * Math.exp(sd * Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand)) }
    end
  end

  def test_a_five_percent_step_in_a_duration_is_found_at_its_run_and_is_slower
    points = CP.of(series(40) { |r| (r >= 20) ? 0.105 : 0.1 }, higher_is_better: false)
    assert_equal 1, points.size
    point = points.first
    assert_equal 20, point.index
    assert_equal 0...20, point.runs_before
    assert_equal 20...40, point.runs_after
    assert_equal "slower", point.verdict
    assert point.change?
    assert_in_delta 1.05, point.ratio, 0.01
    assert_operator point.low, :>, 1.0
    assert_operator point.high, :<, 1.1
    assert_in_delta point.level_after / point.level_before, point.ratio, 1e-12
    assert_operator point.permutation_p, :<=, 0.05
    assert_match(/E-divisive means \(199 permutations\).*Welch t/, point.method)
    assert point.frozen?
    assert points.frozen?
  end

  def test_the_same_step_in_a_rate_is_slower_and_in_a_size_higher
    rate = CP.of(series(40) { |r| (r >= 20) ? 95.0 : 100.0 }, higher_is_better: true)
    assert_equal ["slower"], rate.map(&:verdict)
    size = CP.of(series(40) { |r| (r >= 20) ? 105.0 : 100.0 }, higher_is_better: false, speed: false)
    assert_equal ["higher"], size.map(&:verdict)
  end

  def test_a_flat_series_has_no_change_point
    assert_empty CP.of(series(40) { 1.0 }, higher_is_better: false)
  end

  def test_the_seed_makes_the_permutation_test_repeatable
    data = series(12, sd: 0.05) { |r| (r >= 6) ? 1.08 : 1.0 }
    first = CP.of(data, higher_is_better: false, seed: 5)
    assert_equal first, CP.of(data, higher_is_better: false, seed: 5)
  end

  def test_a_break_cuts_the_series_and_a_step_at_the_break_is_no_change
    data = series(40) { |r| (r >= 20) ? 1.2 : 1.0 }
    assert_empty CP.of(data, higher_is_better: false, breaks: [20])
    points = CP.of(series(40) { |r| [1.0, 1.2, 1.26][(r >= 30) ? 2 : r / 20] }, higher_is_better: false, breaks: [20])
    assert_equal [30], points.map(&:index)
    assert_equal 20...30, points.first.runs_before
    assert_equal 30...40, points.first.runs_after
  end

  def test_a_step_smaller_than_the_margin_is_a_candidate_called_equivalent
    points = CP.of(series(40, sd: 0.001) { |r| (r >= 20) ? 1.01 : 1.0 }, higher_is_better: false)
    assert_equal [20], points.map(&:index)
    assert_equal "equivalent", points.first.verdict
    refute points.first.change?
    assert_match(/smaller than the margin/, points.first.reason)
    assert_equal ["slower"], CP.of(series(40, sd: 0.001) { |r| (r >= 20) ? 1.01 : 1.0 }, higher_is_better: false, margin: 0.005).map(&:verdict)
  end

  def test_two_steps_are_each_compared_with_the_runs_between_them
    points = CP.of(series(45) { |r| [1.0, 1.1, 1.0][r / 15] }, higher_is_better: false)
    assert_equal [15, 30], points.map(&:index)
    assert_equal [0...15, 15...30], points.map(&:runs_before)
    assert_equal [15...30, 30...45], points.map(&:runs_after)
    assert_equal %w[slower faster], points.map(&:verdict)
    assert_operator points.map(&:confidence).max, :<=, 1 - 0.05 / 2 + 1e-12
  end

  def test_a_run_without_a_level_refuses_the_series_with_the_run_named
    assert_nil CP.refusal([[1.0], [2.0, 1.0]])
    assert_equal "run 2 has a batch that reported 0.0; a ratio needs positive values", CP.refusal([[1.0], [0.0, 1.0]])
    assert_equal "run 3 has no batch value; a run's level needs one", CP.refusal([[1.0], [1.0], []])
    error = assert_raises(ArgumentError) { CP.of([[1.0], [0.0, 1.0]], higher_is_better: false) }
    assert_equal CP.refusal([[1.0], [0.0, 1.0]]), error.message
  end

  def test_too_few_runs_for_two_sides_give_nothing
    assert_empty CP.of([[1.0], [1.0], [2.0]], higher_is_better: false)
  end

  def test_the_divergence_of_each_split_is_the_energy_statistic_of_its_definition
    x = [0.3, -0.1, 0.2, 1.4, 1.1, 0.9, 1.3]
    expected = (2..5).map do |m|
      left, right = x[0...m], x[m..]
      across = left.product(right).sum { |a, b| (a - b).abs } * 2.0 / (left.size * right.size)
      within = ->(s) { s.combination(2).sum { |a, b| (a - b).abs } / (s.size * (s.size - 1) / 2.0) }
      [m, left.size * right.size / x.size.to_f * (across - within.call(left) - within.call(right))]
    end
    best = expected.max_by(&:last)
    index, q = ED.segment_best(x, 2)
    assert_equal best.first, index
    assert_in_delta best.last, q, 1e-12
    assert_equal 3, index
  end

  def test_the_permutation_p_value_counts_the_observed_split_among_the_permutations
    # 2 of the C(12, 6) = 924 orders split as well as the observed one: p is 1/100 plus a few in a thousand.
    found = ED.candidates([0.0] * 6 + [5.0] * 6, alpha: 0.05, permutations: 99, rng: Random.new(1), min_size: 2)
    assert_equal [6], found.map(&:index)
    assert_operator found.first.p_value, :>=, 0.01
    assert_operator found.first.p_value, :<=, 0.03
  end
end
