require "test_helper"

# The edges of Inference, case by case: pairs by round (the paired t by hand, Welch when the rounds are
# unknown, too few pairs, or too few for pairing to pay), Hsu's df for unequal batch counts, the one-unit floor of counts, constant
# values from too few batches, and metrics that appear from zero.
class EdgesTest < Minitest::Test
  Inference = Rubyrig::Analysis::Inference
  Stats = Rubyrig::Stats

  def exps(*logs) = logs.map { |l| Math.exp(l) }

  def test_rounds_that_hold_both_cells_pair_the_batches
    # Log ratios per round 0.3, 0.25, 0.35: mean 0.3, sd 0.05, 2 df; the round effects (0, 1, 2) cancel.
    base = exps(0.0, 1.0, 2.0)
    other = exps(0.3, 1.25, 2.35)
    contrast = {base: base, other: other, base_rounds: [1, 2, 3], other_rounds: [1, 2, 3]}
    refute Inference.family([contrast]).first.paired, "at 3 batches pairing does not pay for its df (Pairing.worth?)"
    r = Inference.family([contrast], pairing: :always).first
    assert r.paired
    assert_equal "t on round-paired log ratios", r.method
    assert_in_delta Math.exp(0.3), r.ratio, 1e-12
    assert_in_delta 2.0, r.df, 1e-12
    half = Stats.t_quantile(0.975, 2) * 0.05 / Math.sqrt(3)
    assert_in_delta Math.exp(0.3 - half), r.ci[0], 1e-9
    assert_equal :higher, r.decision
    welch = Inference.family([{base: base, other: other}]).first
    refute welch.paired
    assert_equal :inconclusive, welch.decision, "the round effect swamps Welch's test"
  end

  def test_a_batch_without_its_partner_is_left_out_and_too_few_pairs_fall_back_to_welch
    contrast = {base: exps(0.0, 1.0, 2.0, 3.0), other: exps(0.3, 1.25, 2.35), base_rounds: [1, 2, 3, 4], other_rounds: [1, 2, 3]}
    r = Inference.family([contrast], pairing: :always).first
    assert r.paired
    assert_in_delta Math.exp(0.3), r.ratio, 1e-12
    apart = Inference.family([{base: [1.0, 1.1], other: [1.2, 1.3], base_rounds: [1, 2], other_rounds: [3, 4]}], pairing: :always).first
    refute apart.paired
    assert_equal "Welch t on log values", apart.method
  end

  def test_unequal_batch_counts_cap_welchs_df_at_the_smaller_side
    base = exps(0.0, 0.02, -0.02, 0.01, -0.01, 0.03, -0.03, 0.0, 0.015, -0.015)
    r = Inference.family([{base: base, other: exps(0.05, 0.07, 0.03)}]).first
    assert_in_delta 2.0, r.df, 1e-12
    assert_equal [:unequal], r.caveats
    assert_empty Inference.family([{base: base.first(3), other: exps(0.05, 0.07, 0.03)}]).first.caveats
  end

  def test_a_count_that_looks_constant_is_not_a_certainty
    chance = Inference.family([{base: [1.0, 1.0], other: [2.0, 2.0]}], count: true).first
    assert_equal :inconclusive, chance.decision
    assert_includes chance.caveats, :floored
    # Variances floored at (log(2) / 2)^2 and (log(1.5) / 2)^2 over 2 batches each.
    se = Math.sqrt((Math.log(2) / 2)**2 / 2 + (Math.log(1.5) / 2)**2 / 2)
    assert_in_delta se, Math.log(chance.ci[1] / chance.ratio) / Stats.t_quantile(0.975, chance.df), 1e-9
    # Large steady counts still decide: 1000 against 1200, 5 batches each.
    assert_equal :higher, Inference.family([{base: [1000.0] * 5, other: [1200.0] * 5}], count: true).first.decision
  end

  def test_constant_values_need_three_batches_to_count_as_exact
    two = Inference.family([{base: [100.0, 100.0], other: [150.0, 150.0]}]).first
    assert_equal :inconclusive, two.decision
    assert_equal [:few_constant], two.caveats
    assert_match(/constant on both sides but over fewer than 3 batches/, two.reason)
    assert_equal :higher, Inference.family([{base: [100.0] * 3, other: [150.0] * 3}]).first.decision
    assert_equal :equivalent, Inference.family([{base: [100.0] * 2, other: [100.0] * 2}]).first.decision
  end

  def test_a_metric_that_is_zero_on_one_side_appears_or_disappears_when_fisher_decides_it
    family = Inference.family([{base: [0.0, 0.0, 0.0], other: [12.0, 0.0, 30.0]}, {base: [4.0] * 5, other: [0.0] * 5},
      {base: [0.0, 0.0], other: [0.0, 0.0]}, {base: [1.0, 1.2, 0.9], other: [1.1, 1.0, 1.3]}], appear: true)
    seen, disappeared, none, plain = family
    assert_equal :inconclusive, seen.decision
    assert_equal [0.0, 14.0, 0, 2, 3, 3], seen.appearance.to_h.values_at(:base_per_batch, :other_per_batch,
      :base_batches_with, :other_batches_with, :base_n, :other_n)
    # Fisher: 2 of 3 against 0 of 3 batches had any; the tail as extreme: both of the 2 with any on this
    # side, C(3,2) / C(6,2) = 3 / 15, doubled.
    assert_in_delta 0.4, seen.p_value, 1e-12
    assert_in_delta 1.0, seen.p_adjusted, 1e-12
    assert_match(/\Aseen on one side only, not decided: 14 per batch \(2 of 3 batches had any\) here against 0 in all 3 batches on the baseline \(Fisher's exact test on batches with any: p=0\.400, needs below 0\.0167 after the correction over 3; odds ratio of a batch with any \[0\.105, inf\]\)\z/, seen.reason)
    assert_nil seen.ci
    assert_equal "Fisher's exact test on batches with any, Bonferroni over 3 comparisons", seen.method
    # 0 of 5 against 5 of 5: 2 / C(10,5) = 0.0079, below 0.05 / 3.
    assert_equal :disappeared, disappeared.decision
    assert_in_delta 2.0 / 252, disappeared.p_value, 1e-12
    lo, hi = disappeared.appearance.odds_ci
    assert_equal 0.0, lo
    assert_operator hi, :<, 1.0
    assert_equal :refused, none.decision
    assert_equal "0 in every batch on both sides: no ratio to compare", none.reason
    assert_equal "Welch t on log values, Bonferroni over 3 comparisons", plain.method, "batches with any are tested, so they count in m"
    assert_equal :refused, Inference.family([{base: [0.0, 0.0], other: [3.0, 4.0]}]).first.decision, "speed metrics do not appear"
  end

  # The odds ratio's interval inverts the test exactly: it excludes 1 when p < alpha and not otherwise,
  # at every table of 6 against 6 batches.
  def test_the_interval_of_batches_with_any_is_the_test
    (0..6).to_a.product((0..6).to_a).each do |a, b|
      next if a.zero? && b.zero?
      base = [1.0] * b + [0.0] * (6 - b)
      other = [1.0] * a + [0.0] * (6 - a)
      next if (base + other).none?(&:zero?)
      r = Inference.family([{base: base, other: other}], appear: true, count: true).first
      lo, hi = r.appearance.odds_ci
      excludes = lo > 1.0 || (!hi.nil? && hi < 1.0)
      assert_equal r.p_value < 0.05, excludes, "#{a} of 6 against #{b} of 6: p=#{r.p_value}, [#{lo}, #{hi}]"
      assert_equal r.p_value < 0.05, r.decision != :inconclusive, "#{a} of 6 against #{b} of 6"
    end
  end

  def test_errors_on_both_sides_are_compared_on_batches_with_any
    rise = Inference.family([{base: [3.0] + [0.0] * 29, other: [2.0, 0.0] * 15}], appear: true, count: true).first
    assert_equal :higher, rise.decision
    assert_in_delta Rubyrig::Analysis::Appearance.fisher(15, 30, 1, 30), rise.p_value, 1e-15
    assert_nil rise.reason[/not decided/]
    fall = Inference.family([{base: [2.0, 0.0] * 15, other: [3.0] + [0.0] * 29}], appear: true, count: true).first
    assert_equal :lower, fall.decision
    same = Inference.family([{base: [0.0, 1.0] * 5, other: [1.0, 0.0] * 5}], appear: true, count: true).first
    assert_equal :inconclusive, same.decision
    assert_match(/\Aseen on both sides, not decided: /, same.reason)
  end

  # A measured quantity (CPU seconds at the clock's tick) that reads 0 in one batch among positive
  # readings on both sides is not an absence: it is refused like any zero in a ratio, not tested on
  # batches with any; a count (errors) with the same zeros is.
  def test_a_zero_among_positive_readings_of_a_measured_quantity_is_not_an_appearance
    contrast = {base: [0.0, 0.012, 0.011, 0.010, 0.013], other: [0.17, 0.18, 0.16, 0.19, 0.17]}
    measured = Inference.family([contrast], appear: true).first
    assert_equal :refused, measured.decision
    assert_nil measured.appearance
    refute_nil Inference.family([contrast], appear: true, count: true).first.appearance
    absent = Inference.family([{base: [0.0] * 5, other: [2.6e8] * 5}], appear: true).first
    assert_equal :appeared, absent.decision, "0 in every batch on one side is an absence, measured or counted"
  end
end
