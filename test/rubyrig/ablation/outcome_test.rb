# What a follow-up comparison says about the gap, and the one line of the answer.
require "test_helper"

class AblationOutcomeTest < Minitest::Test
  Ablation = Rubyrig::Ablation
  Measured = Struct.new(:ratio, :ci, :verdict, keyword_init: true)

  SLOWER = Ablation::Difference.new(cell: "c", workload: "builtin:mtime-threads", params: {"threads" => 4}, runtime: "3.3.8",
    reference: "system", metric: "iterations_per_s", ratio: 0.122, ci: [0.097, 0.153], verdict: "slower", factors: [], line: nil).freeze

  def outcome(ratio, ci, verdict) = Ablation::Outcome.of(SLOWER, Measured.new(ratio: ratio, ci: ci, verdict: verdict))

  def test_each_outcome
    assert_equal "closes the gap", outcome(1.0, [0.99, 1.01], "equivalent")
    assert_equal "closes the gap", outcome(0.974, [0.879, 1.079], "inconclusive"), "not decided apart and clear of the gap"
    assert_equal "not decided", outcome(0.5, [0.14, 1.2], "inconclusive"), "its interval meets the original one"
    assert_equal "narrows it", outcome(0.5, [0.4, 0.6], "slower")
    assert_equal "leaves it", outcome(0.13, [0.11, 0.16], "slower")
    assert_equal "widens it", outcome(0.05, [0.04, 0.06], "slower")
    assert_equal "reverses it", outcome(1.5, [1.3, 1.7], "faster")
    assert_equal "reverses it", outcome(1.05, [1.021, 1.08], "faster"), "wholly beyond the 2% margin"
    assert_equal "closes the gap", outcome(1.03, [1.004, 1.057], "faster"), "decided the other way, reaching into the margin"
    assert_equal "closes the gap", outcome(0.97, [0.945, 0.995], "slower"), "decided the same way, reaching into the margin"
    assert_equal "narrows it", outcome(0.9, [0.85, 0.95], "slower"), "clear of the margin"
    assert_equal "not measured", outcome(nil, nil, "not compared")
  end

  def test_a_higher_ratio_closes_from_above
    higher = SLOWER.to_h.merge(metric: "peak_rss_bytes", ratio: 3.0, ci: [2.8, 3.2], verdict: "higher")
    difference = Ablation::Difference.new(**higher)
    assert_equal "closes the gap", Ablation::Outcome.of(difference, Measured.new(ratio: 1.1, ci: [0.95, 1.3], verdict: "inconclusive"))
    assert_equal "narrows it", Ablation::Outcome.of(difference, Measured.new(ratio: 2.0, ci: [1.8, 2.2], verdict: "higher"))
  end

  def row(switch, at, ratio, ci, verdict, was: "running 4 threads")
    measured = Measured.new(ratio: ratio, ci: ci, verdict: verdict)
    Ablation::Answer::Row.new(switch: switch, name: "concurrency", point: {}, at: at, was: was, why: "w", ratio: ratio, ci: ci,
      verdict: verdict, outcome: Ablation::Outcome.of(SLOWER, measured), dir: "why/x/y")
  end

  def test_the_line_names_the_switch_that_closes_the_gap_with_its_measured_ratio
    rows = [row("threads=1, 2", "at threads=1", 1.004, [0.985, 1.019], "equivalent"), row("threads=1, 2", "at threads=2", 0.6, [0.5, 0.7], "slower"),
      row("+mn on 3.3.8", "with +mn on 3.3.8", 0.13, [0.11, 0.16], "slower", was: "one native thread per Ruby thread")]
    assert_equal "the difference comes from running 4 threads: at threads=1 3.3.8 and system are equivalent (1.004x [0.985, 1.019])",
      Ablation::Answer.build(SLOWER, rows, []).line
  end

  def test_a_closing_decided_the_other_way_within_the_margins_reach_says_so
    line = Ablation::Answer.build(SLOWER, [row("threads=1", "at threads=1", 1.03, [1.004, 1.057], "faster")], []).line
    assert_equal "the difference comes from running 4 threads: at threads=1 3.3.8 is 1.030x [1.004, 1.057] system, faster within " \
      "the equivalence margin's reach, clear of the 0.122x measured", line
  end

  def test_an_undecided_closing_says_so
    line = Ablation::Answer.build(SLOWER, [row("threads=1", "at threads=1", 0.974, [0.879, 1.079], "inconclusive")], []).line
    assert_equal "the difference comes from running 4 threads: at threads=1 3.3.8 is 0.974x [0.879, 1.079] system, not decided apart and clear of the 0.122x measured", line
  end

  def test_when_nothing_closes_the_line_says_what_was_tried
    rows = [row("+mn on 3.3.8", "with +mn on 3.3.8", 0.13, [0.11, 0.16], "slower"), row("a larger GC heap", "with a larger GC heap", 0.5, [0.4, 0.6], "slower")]
    assert_equal "no switch tried closes the gap (+mn on 3.3.8; a larger GC heap); with a larger GC heap it narrows to 0.500x [0.400, 0.600]; " \
      "the cause is elsewhere: a profile (--profile) shows where the time goes", Ablation::Answer.build(SLOWER, rows, []).line
  end
end
