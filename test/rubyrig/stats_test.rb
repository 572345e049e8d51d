require "test_helper"

class StatsTest < Minitest::Test
  Stats = Rubyrig::Stats

  # Normal samples from a seeded generator (Box-Muller), so every run sees the same numbers.
  def normal(rng, n, mean, sd)
    Array.new(n) do
      u1 = 1.0 - rng.rand
      u2 = rng.rand
      mean + sd * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math::PI * u2)
    end
  end

  def test_summary_of_known_values
    s = Stats.summarize([1.0, 2.0, 3.0, 4.0, 10.0])
    assert_equal 5, s[:n]
    assert_in_delta 3.0, s[:median]
    assert_in_delta 4.0, s[:mean]
    assert_in_delta Math.sqrt(12.5), s[:sd]
    assert_in_delta Math.sqrt(12.5) / 4.0, s[:cv]
    assert_in_delta 1.4, s[:p10]
    assert_in_delta 7.6, s[:p90]
    assert_equal [1.0, 10.0], [s[:min], s[:max]]
    assert_nil s[:median_ci], "five batches are too few for a 95% interval of the median"
  end

  def test_the_median_interval_comes_from_order_statistics
    assert_nil Stats.median_ci([1.0, 2.0, 3.0, 4.0, 5.0]), "five values cannot reach 95% coverage"
    assert_equal [1.0, 6.0], Stats.median_ci([6.0, 2.0, 4.0, 1.0, 3.0, 5.0]), "1 - 2/64 = 96.9%"
    # Nine values: dropping two from each end still covers 1 - 2 * 10/512 = 96.1%.
    assert_equal [2.0, 8.0], Stats.median_ci((1..9).map(&:to_f))
    # The textbook pair for 100 values is the 40th and 61st.
    assert_equal [40.0, 61.0], Stats.median_ci((1..100).map(&:to_f))
  end

  def test_the_median_interval_covers_the_true_median
    rng = Random.new(7)
    hits = Array.new(400) { Stats.median_ci(normal(rng, 15, 0.0, 1.0)) }.count { |lo, hi| 0.0.between?(lo, hi) }
    # At least 95% by construction; 400 draws keep a 92% floor more than 3 standard errors away.
    assert_operator hits, :>=, 368
  end

  def test_rates_are_averaged_in_the_time_domain
    # 1 job/s and 3 jobs/s over equal work take 1 s + 1/3 s: 2 jobs in 4/3 s is 1.5 jobs/s, not 2.
    assert_in_delta 1.5, Stats.time_domain_mean([1.0, 3.0], rate: true)
    assert_in_delta 2.0, Stats.time_domain_mean([1.0, 3.0], rate: false)
  end

  def test_identical_distributions_give_no_significant_difference
    rng = Random.new(42)
    base = normal(rng, 10, 100.0, 2.0)
    other = normal(rng, 10, 100.0, 2.0)
    ci = Stats.bootstrap_ratio_ci(base, other, rate: true, rng: rng)
    p = Stats.permutation_p_value(base, other, rate: true, rng: rng)
    assert_operator ci[0], :<, 1.0
    assert_operator ci[1], :>, 1.0
    assert_operator p, :>, 0.05
    assert_equal :same, Stats.direction(ratio: Stats.ratio(base, other, rate: true), ci: ci, p_adjusted: p)
  end

  def test_a_five_percent_shift_is_detected_and_covered
    rng = Random.new(7)
    base = normal(rng, 10, 100.0, 1.0)
    other = normal(rng, 10, 105.0, 1.0)
    ratio = Stats.ratio(base, other, rate: true)
    ci = Stats.bootstrap_ratio_ci(base, other, rate: true, rng: rng)
    p = Stats.permutation_p_value(base, other, rate: true, rng: rng)
    assert_in_delta 1.05, ratio, 0.01
    assert_operator ci[0], :<=, 1.05
    assert_operator ci[1], :>=, 1.05
    assert_operator ci[0], :>, 1.0
    assert_operator p, :<, 0.01
    assert_equal :higher, Stats.direction(ratio: ratio, ci: ci, p_adjusted: p)
  end

  def test_a_shift_in_a_duration_is_lower
    rng = Random.new(3)
    base = normal(rng, 8, 2.0, 0.02)
    other = normal(rng, 8, 1.9, 0.02)
    ratio = Stats.ratio(base, other, rate: false)
    ci = Stats.bootstrap_ratio_ci(base, other, rate: false, rng: rng)
    p = Stats.permutation_p_value(base, other, rng: rng)
    assert_in_delta 0.95, ratio, 0.01
    assert_equal :lower, Stats.direction(ratio: ratio, ci: ci, p_adjusted: p)
  end

  def test_exact_permutation_test_on_five_against_five
    # Completely separated groups: only 2 of the 252 relabellings are as extreme (both tails).
    p = Stats.permutation_p_value([1, 2, 3, 4, 5], [6, 7, 8, 9, 10], rng: Random.new(1))
    assert_in_delta 2.0 / 252, p, 1e-12
  end

  def test_large_groups_use_a_seeded_monte_carlo_test
    rng = Random.new(11)
    a = normal(rng, 30, 10.0, 1.0)
    b = normal(rng, 30, 10.0, 1.0)
    p1 = Stats.permutation_p_value(a, b, rng: Random.new(5), resamples: 2000)
    p2 = Stats.permutation_p_value(a, b, rng: Random.new(5), resamples: 2000)
    assert_equal p1, p2
    assert_operator p1, :>, 0.0
  end

  def test_holm_adjustment_matches_the_step_down_definition
    adjusted = Stats.holm([0.01, 0.04, 0.03, nil, 0.005])
    # sorted: 0.005*4=0.02, 0.01*3=0.03, 0.03*2=0.06, 0.04*1=0.04 -> monotone 0.06
    assert_in_delta 0.03, adjusted[0]
    assert_in_delta 0.06, adjusted[1]
    assert_in_delta 0.06, adjusted[2]
    assert_nil adjusted[3]
    assert_in_delta 0.02, adjusted[4]
  end

  def test_holm_correction_turns_a_marginal_difference_into_no_difference
    rng = Random.new(19)
    base = normal(rng, 5, 100.0, 1.0)
    shifted = base.map { |v| v + 3.0 + rng.rand * 0.1 }
    p = Stats.permutation_p_value(base, shifted, rng: rng)
    ci = Stats.bootstrap_ratio_ci(base, shifted, rate: false, rng: rng)
    ratio = Stats.ratio(base, shifted, rate: false)
    assert_equal :higher, Stats.direction(ratio: ratio, ci: ci, p_adjusted: p)
    # The same p-value among ten comparisons no longer clears alpha once adjusted.
    adjusted = Stats.holm([p] * 10).first
    assert_operator adjusted, :>=, 0.05
    assert_equal :same, Stats.direction(ratio: ratio, ci: ci, p_adjusted: adjusted)
  end

  def test_bootstrap_needs_two_values_per_group
    assert_nil Stats.bootstrap_ratio_ci([1.0], [1.0, 2.0], rate: false, rng: Random.new(1))
  end
end
