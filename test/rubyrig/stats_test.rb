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

  # Two-sided 95% and other critical values from published t tables (6 significant digits).
  def test_t_quantiles_match_table_values
    {[0.975, 4] => 2.776445, [0.975, 10] => 2.228139, [0.975, 30] => 2.042272, [0.995, 3] => 5.840909,
     [0.95, 1] => 6.313752, [0.999, 20] => 3.551808, [0.9, 7] => 1.414924}.each do |(p, df), expected|
      assert_in_delta expected, Stats.t_quantile(p, df), 1e-6, "t(#{p}, #{df})"
      assert_in_delta(-expected, Stats.t_quantile(1 - p, df), 1e-6, "t(#{1 - p}, #{df})")
    end
  end

  def test_t_with_one_degree_of_freedom_is_the_cauchy_distribution
    [0.51, 0.6, 0.75, 0.9, 0.975, 0.999, 0.999999, 0.3, 0.001].each do |p|
      expected = Math.tan(Math::PI * (p - 0.5))
      assert_in_delta expected, Stats.t_quantile(p, 1), 1e-9 * [1, expected.abs].max, "p = #{p}"
    end
    [-50.0, -3.0, -0.2, 0.0, 0.7, 12.706].each do |t|
      assert_in_delta 0.5 + Math.atan(t) / Math::PI, Stats.t_cdf(t, 1), 1e-13, "t = #{t}"
    end
  end

  def test_t_with_two_degrees_of_freedom_matches_its_closed_form
    [0.55, 0.8, 0.975, 0.9999, 0.02].each do |p|
      assert_in_delta (2 * p - 1) / Math.sqrt(2 * p * (1 - p)), Stats.t_quantile(p, 2), 1e-9, "p = #{p}"
    end
    [-4.0, -1.0, 0.5, 3.0, 40.0].each do |t|
      assert_in_delta 0.5 + t / (2 * Math.sqrt(2 + t * t)), Stats.t_cdf(t, 2), 1e-13, "t = #{t}"
    end
  end

  def test_t_approaches_the_normal_distribution_for_large_degrees_of_freedom
    assert_in_delta 1.959964, Stats.normal_quantile(0.975), 1e-6
    assert_in_delta 2.575829, Stats.normal_quantile(0.995), 1e-6
    assert_in_delta(-6.361341, Stats.normal_quantile(1e-10), 1e-6)
    assert_in_delta 1.959964, Stats.t_quantile(0.975, 1e9), 1e-6
    assert_in_delta 1.959966, Stats.t_quantile(0.975, 1e6), 1e-6
    assert_in_delta 1.983972, Stats.t_quantile(0.975, 100), 1e-6
    # Both sides of the switch to the large-df expansion agree.
    assert_in_delta Stats.t_quantile(0.999, 1e6), Stats.t_quantile(0.999, 1e6 + 1), 1e-9
    assert_in_delta Stats.normal_cdf(1.5), Stats.t_cdf(1.5, 1e12), 1e-12
  end

  def test_t_quantile_inverts_the_cdf_for_fractional_degrees_of_freedom
    [1.3, 2.0, 2.71, 4.5, 8.2, 17.9, 250.0].each do |df|
      [1e-6, 0.001, 0.0125, 0.1, 0.4, 0.5, 0.77, 0.99, 0.9999].each do |p|
        t = Stats.t_quantile(p, df)
        assert_in_delta p, Stats.t_cdf(t, df), 1e-12, "p = #{p}, df = #{df}"
        assert_in_delta 1 - p, Stats.t_upper_tail(t, df), 1e-9 * (1 - p), "p = #{p}, df = #{df}"
      end
    end
  end

  def test_incomplete_beta_matches_its_closed_forms
    [0.01, 0.3, 0.5, 0.92].each do |x|
      assert_in_delta x**2.5, Stats.incomplete_beta(x, 2.5, 1.0), 1e-13
      assert_in_delta 1 - (1 - x)**3.2, Stats.incomplete_beta(x, 1.0, 3.2), 1e-13
    end
    assert_in_delta 0.5, Stats.incomplete_beta(0.5, 7.3, 7.3), 1e-13
    assert_equal [0.0, 1.0], [Stats.incomplete_beta(0.0, 2.0, 3.0), Stats.incomplete_beta(1.0, 2.0, 3.0)]
  end

  def test_welch_satterthwaite_degrees_of_freedom
    # Equal variances and sizes give the pooled 2(n - 1); one exact group leaves the other's n - 1.
    assert_in_delta 8.0, Stats.welch_df(2.0, 5, 2.0, 5), 1e-12
    assert_in_delta 4.0, Stats.welch_df(0.0, 3, 2.0, 5), 1e-12
    # (1/10 + 4/20)^2 / ((1/10)^2 / 9 + (4/20)^2 / 19)
    assert_in_delta 27.98, Stats.welch_df(1.0, 10, 4.0, 20), 0.01
    assert_nil Stats.welch_df(0.0, 3, 0.0, 4)
  end

  def test_t_functions_reject_impossible_arguments
    assert_raises(ArgumentError) { Stats.t_quantile(1.0, 3) }
    assert_raises(ArgumentError) { Stats.t_quantile(0.5, 0) }
    assert_raises(ArgumentError) { Stats.t_upper_tail(1.0, -2) }
    assert_raises(ArgumentError) { Stats.normal_quantile(0.0) }
  end
end
