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
