require "test_helper"

# The edges of Inference, case by case: pairs by round (the paired t by hand, Welch when the rounds are
# unknown or too few pairs), Hsu's df for unequal batch counts, the one-unit floor of counts, constant
# values from too few batches, and metrics that appear from zero.
class EdgesTest < Minitest::Test
  Inference = Rubyrig::Analysis::Inference
  Stats = Rubyrig::Stats

  def exps(*logs) = logs.map { |l| Math.exp(l) }

  def test_rounds_that_hold_both_cells_pair_the_batches
    # Log ratios per round 0.3, 0.25, 0.35: mean 0.3, sd 0.05, 2 df; the round effects (0, 1, 2) cancel.
    base = exps(0.0, 1.0, 2.0)
    other = exps(0.3, 1.25, 2.35)
    r = Inference.family([{base: base, other: other, base_rounds: [1, 2, 3], other_rounds: [1, 2, 3]}]).first
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
    r = Inference.family([contrast]).first
    assert r.paired
    assert_in_delta Math.exp(0.3), r.ratio, 1e-12
    apart = Inference.family([{base: [1.0, 1.1], other: [1.2, 1.3], base_rounds: [1, 2], other_rounds: [3, 4]}]).first
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

  def test_a_metric_that_is_zero_on_one_side_appears_or_disappears
    family = Inference.family([{base: [0.0, 0.0, 0.0], other: [12.0, 0.0, 30.0]}, {base: [4.0, 2.0], other: [0.0, 0.0]},
      {base: [0.0, 0.0], other: [0.0, 0.0]}, {base: [1.0, 1.2, 0.9], other: [1.1, 1.0, 1.3]}], appear: true)
    appeared, disappeared, none, plain = family
    assert_equal :appeared, appeared.decision
    assert_equal [0.0, 14.0, 0, 2, 3, 3], appeared.appearance.to_h.values_at(:base_per_batch, :other_per_batch,
      :base_batches_with, :other_batches_with, :base_n, :other_n)
    # Fisher: 2 of 3 against 0 of 3 batches had any; tables as extreme: 0 and 2 of the 2 with any in one
    # side, each C(3,2) / C(6,2) = 3 / 15.
    assert_in_delta 0.4, appeared.p_value, 1e-12
    assert_equal "14 per batch (2 of 3 batches had any) here against 0 in all 3 batches on the baseline " \
      "(Fisher's exact test on batches with any: p=0.400)", appeared.reason
    assert_nil appeared.ci
    assert_equal "Fisher's exact test on batches with any", appeared.method
    assert_equal :disappeared, disappeared.decision
    assert_equal :refused, none.decision
    assert_equal "0 in every batch on both sides: no ratio to compare", none.reason
    assert_equal "Welch t on log values", plain.method, "appearances are not among the comparisons corrected for"
    assert_equal :refused, Inference.family([{base: [0.0, 0.0], other: [3.0, 4.0]}]).first.decision, "speed metrics do not appear"
  end
end
