require "test_helper"
require "support_report"

# The edges through a whole report: trials that name their round are paired, unequal batch counts and
# heavy tails are warned about, an error count that appears from zero has its verdict, its warning and
# fails any --fail-if gate.
class EdgeWarningsTest < Minitest::Test
  include SupportReport

  Gate = Rubyrig::Analysis::Gate
  FAST = ["fast", "builtin:nbody", {"n" => 1}].freeze

  # Each trial with its round, and metrics added by (runtime, batch number).
  def report(values, extra: ->(_runtime, _n) { {} }, status: {}, rounds: true)
    meta = synthetic_meta
    trials = synthetic_trials(meta, values, status: status).map do |t|
      Rubyrig::Results::Trial.new(**t.to_h, round: rounds ? t.batch : nil, metrics: t.metrics.merge(extra.call(t.runtime, t.batch)))
    end
    Rubyrig::Analysis.new.analyze(meta: meta, trials: trials)
  end

  def steady = {"base" => [10.0, 10.1, 9.9, 10.05, 9.95], "fast" => [12.0, 12.1, 11.9, 12.05, 11.95]}

  # At 5 batches a side pairing costs more degrees of freedom than the round correlation it assumes
  # buys back (Pairing.worth?), so the trials' rounds are not used; from 8 they are.
  def test_trials_with_rounds_are_paired_where_the_design_says_it_pays_and_the_method_says_so
    refute report(steady).comparison(*FAST, "iterations_per_s").paired
    meta = synthetic_meta(batches: 8)
    trials = synthetic_trials(meta, ->(runtime, _params, n) { ((runtime == "fast") ? 12.0 : 10.0) + 0.01 * (n % 3) })
    r = Rubyrig::Analysis.new.analyze(meta: meta, trials: trials.map { |t| Rubyrig::Results::Trial.new(**t.to_h, round: t.batch) })
    c = r.comparison(*FAST, "iterations_per_s")
    assert c.paired
    assert_equal 7, c.df
    assert_equal "t on round-paired log ratios", c.method_name
    refute report(steady, rounds: false).comparison(*FAST, "iterations_per_s").paired
  end

  def test_unequal_batch_counts_without_rounds_are_warned_about
    failed = {"c1-b4" => "failed", "c1-b5" => "failed"}
    r = report(steady, status: failed, rounds: false)
    assert_equal [:unequal], r.comparison(*FAST, "iterations_per_s").caveats
    assert_includes r.warnings, "unequal batch counts: Welch's df is capped at the smaller side's n - 1 (conservative): " \
      "fast | builtin:nbody | n=1 iterations/s; fast | builtin:nbody | n=1 peak RSS"
  end

  # Two failed batches without rounds: Welch's df is capped at 2, so the 95% interval needs t = 4.30,
  # though 3 batches a side would give 2.78 on Welch's usual 4 df (which the warning used to assume).
  def test_the_strict_correction_warning_uses_the_df_of_the_test
    r = report(steady, status: {"c1-b4" => "failed", "c1-b5" => "failed"}, rounds: false)
    assert_equal 2.0, r.comparison(*FAST, "iterations_per_s").df
    assert_includes r.warnings, "builtin:nbody: with 3 batches per cell and a 95.00% interval (Welch t on log values), a difference " \
      "must be 4.3 standard errors from 1.0 to be called, so only large changes can be; --batches 5 brings that under 4"
    assert_empty report(steady, rounds: false).warnings.grep(/standard errors from 1\.0/)
  end

  def test_a_batch_far_out_in_the_tail_is_warned_about
    r = report({"base" => [10.0, 10.1, 9.9, 10.05, 30.0], "fast" => steady["fast"]})
    assert_includes r.warnings.join("\n"), "1 of 5 batches lie far from the others on iterations/s (2.99x the median)"
    assert_empty report(steady).warnings.grep(/far from the others/)
  end

  def test_heavy_tails_in_many_cells_are_one_line
    names = %w[a b c d e]
    meta = synthetic_meta(runtimes: names)
    tails = names.each_with_index.to_h { |name, i| [name, [10.0, 10.1, 9.9, 10.05, 20.0 + i]] }
    r = Rubyrig::Analysis.new.analyze(meta: meta, trials: synthetic_trials(meta, tails))
    lines = r.warnings.grep(/far from the others/)
    assert_equal 1, lines.size, lines.join("\n")
    assert_match(/\A5 of 5 cells have batches far from the others on their primary metric \(1\.99x to 2\.39x the median, most in e \| /, lines.first)
  end

  def test_errors_that_appear_in_every_batch_have_a_verdict_a_warning_and_fail_any_gate
    errors = ->(runtime, n) { {"error_count" => (runtime == "fast") ? 3.0 + n : 0.0, "gc_major_count" => (runtime == "fast") ? 1.0 : 0.0} }
    r = report(steady, extra: errors)
    c = r.comparison(*FAST, "error_count")
    assert_equal "appeared", c.verdict
    assert_equal 5, c.appearance.other_batches_with
    assert_includes r.warnings, "fast | builtin:nbody | n=1: errors appeared against base: 6 per batch (5 of 5 batches had any) here " \
      "against 0 in all 5 batches on the baseline (Fisher's exact test on batches with any: p=0.008; odds ratio of a batch with any [2.3, inf])"
    lines = Gate.failures(r, [Gate.parse("slower")])
    assert_equal 1, lines.size
    assert_match(/\A--fail-if appeared \(errors fail any gate\): fast \| builtin:nbody \| n=1: errors appeared against base \(6 per batch/, lines.first)
    assert_empty Gate.failures(r, []), "no gate, no failure"
    named = Gate.failures(r, [Gate.parse("appeared:gc_major_count")])
    assert_equal 2, named.size
    assert_match(/\A--fail-if appeared:gc_major_count: fast .*major GCs appeared against base/, named.last)
  end

  # Errors in 3 of 5 batches against none: Fisher's p = 0.167, which a run with errors in a few batches
  # of both sides reaches by chance; the report shows it, the gate does not fail on it.
  def test_errors_seen_on_one_side_but_not_decided_are_shown_and_fail_no_gate
    errors = ->(runtime, n) { {"error_count" => (runtime == "fast" && n.odd?) ? 4.0 : 0.0} }
    r = report(steady, extra: errors)
    c = r.comparison(*FAST, "error_count")
    assert_equal "inconclusive", c.verdict
    assert_includes r.warnings, "fast | builtin:nbody | n=1: errors inconclusive against base: seen on one side only, not decided: " \
      "2.4 per batch (3 of 5 batches had any) here against 0 in all 5 batches on the baseline (Fisher's exact test on batches " \
      "with any: p=0.167; odds ratio of a batch with any [0.493, inf])"
    assert_empty Gate.failures(r, [Gate.parse("slower"), Gate.parse("appeared:error_count")])
  end

  # Errors on both sides, in 1 of 30 baseline batches and 14 of 30 here: a rate comparison, not "not
  # compared", and a decided rise fails any gate.
  def test_errors_on_both_sides_are_compared_and_a_decided_rise_fails_any_gate
    meta = synthetic_meta(batches: 30)
    values = {"base" => [10.0] * 30, "fast" => [12.0] * 30}
    trials = synthetic_trials(meta, values).map do |t|
      bad = (t.runtime == "base") ? t.batch == 7 : t.batch.odd? && t.batch < 29
      Rubyrig::Results::Trial.new(**t.to_h, round: t.batch, metrics: t.metrics.merge("error_count" => bad ? 5.0 : 0.0))
    end
    r = Rubyrig::Analysis.new.analyze(meta: meta, trials: trials)
    c = r.comparison(*FAST, "error_count")
    assert_equal "higher", c.verdict
    assert_equal [1, 14], [c.appearance.base_batches_with, c.appearance.other_batches_with]
    assert_operator c.p_adjusted, :<, 0.05
    lines = Gate.failures(r, [Gate.parse("slower:50%")])
    assert_equal 1, lines.size
    assert_match(/\A--fail-if rose \(errors fail any gate\): fast \| builtin:nbody \| n=1: errors higher against base \(2\.33 per batch \(14 of 30/, lines.first)
  end

  def test_a_bad_condition_names_every_form
    error = assert_raises(Rubyrig::UsageError) { Gate.parse("appeared:") }
    assert_equal "--fail-if takes slower, slower:PCT% (e.g. slower:5%), inconclusive or appeared[:METRIC], got 'appeared:'", error.message
  end
end
