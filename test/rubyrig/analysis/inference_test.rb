require "test_helper"

class InferenceTest < Minitest::Test
  Inference = Rubyrig::Analysis::Inference
  Stats = Rubyrig::Stats

  def one(base, other, **options) = Inference.family([{base: base, other: other}], **options).first

  # Values whose logarithms are exactly the given numbers.
  def exps(*logs) = logs.map { |l| Math.exp(l) }

  def test_ratio_interval_and_p_value_match_a_hand_computed_welch_test
    # log means 0.1 and 0.4, both log variances 0.01, n = 3: d = 0.3, se = sqrt(0.02 / 3), df = 4.
    r = one(exps(0.0, 0.1, 0.2), exps(0.3, 0.4, 0.5))
    assert_in_delta Math.exp(0.3), r.ratio, 1e-12
    assert_in_delta 4.0, r.df, 1e-9
    se = Math.sqrt(0.02 / 3)
    assert_in_delta Math.exp(0.3 - 2.776445105 * se), r.ci[0], 1e-9
    assert_in_delta Math.exp(0.3 + 2.776445105 * se), r.ci[1], 1e-9
    # Two-sided p for t with 4 df in closed form: 1 - sin(th) (1 + cos(th)^2 / 2), tan(th) = t / 2.
    t = 0.3 / se
    expected_p = 1 - t / Math.sqrt(4 + t * t) * (1 + 2 / (4 + t * t))
    assert_in_delta expected_p, r.p_value, 1e-12
    assert_in_delta 0.0213116, r.p_value, 1e-6
    assert_equal :higher, r.decision
    assert_nil r.reason
    assert_in_delta 0.95, r.confidence, 1e-12
    assert_equal "Welch t on log values", r.method
    assert_equal [3, 3], [r.n, r.baseline_n]
  end

  def test_the_ratio_is_of_geometric_means_so_rates_and_durations_agree
    durations_base = [2.0, 2.2, 1.9, 2.1]
    durations_other = [1.5, 1.7, 1.6, 1.4]
    by_time = one(durations_base, durations_other)
    by_rate = one(durations_base.map { |d| 1 / d }, durations_other.map { |d| 1 / d })
    geomean = ->(values) { Math.exp(values.sum { |v| Math.log(v) } / values.size) }
    assert_in_delta geomean.call(durations_other) / geomean.call(durations_base), by_time.ratio, 1e-12
    assert_in_delta 1 / by_time.ratio, by_rate.ratio, 1e-12
    assert_in_delta 1 / by_time.ci[1], by_rate.ci[0], 1e-12
    assert_in_delta 1 / by_time.ci[0], by_rate.ci[1], 1e-12
    assert_in_delta by_time.p_value, by_rate.p_value, 1e-12
    assert_equal [:lower, :higher], [by_time.decision, by_rate.decision]
  end

  def test_constant_sides_that_differ_are_decided_even_at_three_batches
    # The case that the permutation test could never call: 17.8x the memory with CV 0%.
    r = one([100.0] * 3, [1780.0] * 3)
    assert_equal :higher, r.decision
    assert_in_delta 17.8, r.ratio, 1e-9
    assert_in_delta 17.8, r.ci[0], 1e-9
    assert_in_delta 17.8, r.ci[1], 1e-9
    assert_equal 0.0, r.p_value
    assert_nil r.df
    # Constant and different by less than the margin: a real difference, but within the margin.
    small = one([101.0] * 4, [100.0] * 3)
    assert_equal :equivalent, small.decision
    assert_equal 0.0, small.p_value
    assert_match(/lies within ±2% \(a real difference, smaller than the margin\)/, small.reason)
    assert_equal :lower, one([101.0] * 4, [100.0] * 3, margin: 0.005).decision
  end

  def test_identical_constant_sides_are_equivalent
    r = one([5.0] * 3, [5.0] * 4)
    assert_equal :equivalent, r.decision
    assert_equal [1.0, 1.0], r.ci
    assert_equal 1.0, r.p_value
    assert_match(/\[1\.000, 1\.000\] lies within ±2%/, r.reason)
    # Integers and floats, and sizes where a plain mean of logs would round differently.
    mixed = one([7] * 3, [7.0] * 5)
    assert_equal [:equivalent, 1.0, 1.0], [mixed.decision, mixed.ratio, mixed.p_value]
  end

  def test_one_constant_side_leaves_the_other_sides_degrees_of_freedom
    r = one([10.0] * 5, [10.5, 10.7, 10.2, 10.6])
    assert_in_delta 3.0, r.df, 1e-12
    assert_equal :higher, r.decision
  end

  def test_a_tight_interval_around_one_is_equivalent_and_says_so
    rng = Random.new(3)
    base = Array.new(10) { 100 * (1 + 0.002 * (rng.rand - 0.5)) }
    other = Array.new(10) { 100 * (1 + 0.002 * (rng.rand - 0.5)) }
    r = one(base, other, margin: 0.01)
    assert_equal :equivalent, r.decision
    assert_operator r.ci[0], :>=, 0.99
    assert_operator r.ci[1], :<=, 1.01
    assert_match(/lies within ±1%/, r.reason)
    # Without a margin the same data cannot be called equivalent.
    none = one(base, other, margin: 0)
    assert_equal :inconclusive, none.decision
    assert_match(/includes 1 and no equivalence margin is set/, none.reason)
  end

  def test_inconclusive_says_what_would_decide_it
    r = one([100.0, 104.0, 97.0], [101.0, 98.0, 103.0])
    assert_equal :inconclusive, r.decision
    lo, hi = r.ci.map { |x| format("%.3f", x) }
    assert_match(/\Athe interval \[#{lo}, #{hi}\] includes 1 and is not within ±2%; about \d+ more batches per runtime would decide it 80% of the time if the ratio and spread are as measured\z/, r.reason)
    more = r.reason[/about (\d+) more/, 1].to_i
    assert_operator more, :>=, 1
    wide = one([100.0, 150.0, 70.0], [101.0, 60.0, 160.0])
    assert_match(/more than #{Inference::BATCHES_CAP} more batches per runtime would be needed\z/o, wide.reason)
  end

  # Both conditions of the estimate at n + k batches per side: the interval widened by t(0.8) standard
  # errors decides, and a fresh run's estimate (normal around d, variance se0^2 + se_k^2) decides with
  # a chance of at least 0.8.
  def sized?(d, sd, n, k, alpha, margin)
    df = Stats.welch_df(sd**2, n + k, sd**2, n + k)
    se = Math.sqrt(2 * sd**2 / (n + k))
    half = Stats.t_quantile(1 - alpha / 2, df) * se
    wide = half + Stats.t_quantile(Rubyrig::Analysis::FurtherBatches::POWER, df) * se
    Inference.decides?(Math.exp(d - wide), Math.exp(d + wide), margin) &&
      Rubyrig::Analysis::FurtherBatches.decide_chance(d, half, Math.sqrt(2 * sd**2 / n + se**2), margin) >= Rubyrig::Analysis::FurtherBatches::POWER
  end

  def test_batches_needed_is_the_first_count_sized_for_most_fresh_runs
    sd = 0.05
    k = Rubyrig::Analysis::FurtherBatches.of(log_ratio: 0.0, sd_base: sd, n_base: 3, sd_other: sd, n_other: 3, alpha: 0.05, margin: 0.02)
    assert sized?(0.0, sd, 3, k, 0.05, 0.02)
    refute sized?(0.0, sd, 3, k - 1, 0.05, 0.02)
    # A true ratio of 1 with no margin can never be decided: the answer is "more than the cap".
    assert_nil Rubyrig::Analysis::FurtherBatches.of(log_ratio: 0.0, sd_base: sd, n_base: 3, sd_other: sd, n_other: 3, alpha: 0.05, margin: 0, cap: 500)
  end

  def test_batches_needed_finds_a_difference_to_call
    k = Rubyrig::Analysis::FurtherBatches.of(log_ratio: 0.05, sd_base: 0.1, n_base: 5, sd_other: 0.1, n_other: 5, alpha: 0.05, margin: 0.0)
    assert sized?(0.05, 0.1, 5, k, 0.05, 0.0)
    refute sized?(0.05, 0.1, 5, k - 1, 0.05, 0.0)
    # With normal quantiles, |d| = (1.96 + 0.84) * 0.1 * sqrt(2 / n) at about n = 63: the second condition asks more.
    assert_operator 5 + k, :>=, 60
  end

  def test_the_chance_of_deciding_adds_both_tails_and_the_margin
    assert_in_delta 2 * Stats.normal_cdf(-1.0), Rubyrig::Analysis::FurtherBatches.decide_chance(0.0, 1.0, 1.0, 0.0), 1e-12
    inside = Stats.normal_cdf((Math.log(1.02) - 0.001) / 0.002) - Stats.normal_cdf((Math.log(0.98) + 0.001) / 0.002)
    assert_in_delta 2 * Stats.normal_cdf(-0.5) + inside, Rubyrig::Analysis::FurtherBatches.decide_chance(0.0, 0.001, 0.002, 0.02), 1e-12
  end

  def test_bonferroni_over_comparisons_and_looks_widens_the_interval_it_shows
    rng = Random.new(7)
    base = Array.new(5) { 100 + rng.rand }
    contrasts = Array.new(4) { |i| {base: base, other: Array.new(5) { 100.5 + i + rng.rand }} }
    family = Inference.family(contrasts, looks: 3)
    alone = Inference.family([contrasts.first], alpha: 0.05 / 12).first
    first = family.first
    assert_in_delta 1 - 0.05 / 12, first.confidence, 1e-12
    assert_in_delta alone.ci[0], first.ci[0], 1e-12
    assert_in_delta alone.ci[1], first.ci[1], 1e-12
    family.each { |r| assert_in_delta [r.p_value * 12, 1.0].min, r.p_adjusted, 1e-15 }
    assert_equal "Welch t on log values, Bonferroni over 4 comparisons x 3 looks", first.method
    assert_equal "Welch t on log values, Bonferroni over 3 looks", Inference.family([contrasts.first], looks: 3).first.method
    assert_operator first.ci[1] - first.ci[0], :>, Inference.family([contrasts.first]).first.ci.then { |lo, hi| hi - lo }
  end

  def test_the_adjusted_p_value_and_the_interval_always_agree
    rng = Random.new(11)
    200.times do
      base = Array.new(2 + rng.rand(6)) { Math.exp(0.1 * rng.rand) }
      contrasts = Array.new(1 + rng.rand(5)) do
        shift = 0.12 * (rng.rand - 0.5)
        {base: base, other: Array.new(2 + rng.rand(6)) { Math.exp(shift + 0.1 * rng.rand) }}
      end
      Inference.family(contrasts, looks: 1 + rng.rand(3)).each do |r|
        excludes_one = r.ci[0] > 1 || r.ci[1] < 1
        assert_equal excludes_one, r.p_adjusted < 0.05, r.to_h.inspect
        assert_equal excludes_one, %i[higher lower].include?(r.decision)
      end
    end
  end

  def test_values_that_are_not_positive_are_refused_not_turned_into_a_p_value
    results = Inference.family([
      {base: [1.0, 2.0], other: [0, 2.0]},
      {base: [1.0, -3.5], other: [1.0, 2.0]},
      {base: [1.0, 2.0], other: [1.0, Float::NAN]},
      {base: [1.0, 2.0], other: [1.0]},
      {base: [1.0, 1.1, 1.2], other: [1.3, 1.4, 1.5]}
    ])
    assert_equal %i[refused refused refused refused higher], results.map(&:decision)
    assert_equal "a batch reported 0; a ratio needs positive values", results[0].reason
    assert_equal "a baseline batch reported -3.5; a ratio needs positive values", results[1].reason
    assert_equal "a batch reported NaN; a ratio needs positive values", results[2].reason
    assert_equal "needs at least 2 ok batches on each side (has 1, baseline 2)", results[3].reason
    results.first(4).each { |r| assert_equal [nil, nil, nil, nil], [r.ratio, r.ci, r.p_value, r.p_adjusted] }
    # Refused contrasts spend no alpha: the one testable contrast is alone in its family.
    assert_in_delta 0.95, results.last.confidence, 1e-12
  end

  def test_results_are_frozen_and_carry_the_callers_labels
    r = Inference.family([{base: [1.0, 1.1], other: [1.2, 1.3], runtime: "3.3+yjit", metric: "wall_s"}]).first
    assert_equal({runtime: "3.3+yjit", metric: "wall_s"}, r.labels)
    assert r.frozen?
    assert r.ci.frozen?
    assert r.labels.frozen?
    assert_includes Inference::DECISIONS, r.decision
  end

  def test_decided_means_higher_lower_or_equivalent
    assert one([100.0] * 3, [200.0] * 3).decided?
    assert one([5.0] * 3, [5.0] * 3).decided?
    refute one([100.0, 150.0, 70.0], [101.0, 60.0, 160.0]).decided?
  end

  def test_impossible_settings_are_rejected
    good = [{base: [1.0, 2.0], other: [1.0, 2.0]}]
    assert_raises(ArgumentError) { Inference.family(good, alpha: 0) }
    assert_raises(ArgumentError) { Inference.family(good, margin: 1.0) }
    assert_raises(ArgumentError) { Inference.family(good, margin: -0.1) }
    assert_raises(ArgumentError) { Inference.family(good, looks: 0) }
    assert_raises(ArgumentError) { Inference.family([{base: [1.0, 2.0]}]) }
  end
end
