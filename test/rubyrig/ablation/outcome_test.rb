# What a follow-up comparison says about the gap (its share of it removed, with the interval, and the
# word), and the one line of the answer.
require "test_helper"

class AblationOutcomeTest < Minitest::Test
  Ablation = Rubyrig::Ablation
  Measured = Struct.new(:ratio, :ci, :verdict, :confidence, :df, :margin, :n, :baseline_n, keyword_init: true)

  def difference(ratio, ci, verdict = "slower", df: 8.0, confidence: 0.95, metric: "iterations_per_s")
    Ablation::Difference.new(cell: "c", workload: "builtin:mtime-threads", params: {"threads" => 4}, runtime: "3.3.8",
      reference: "system", metric: metric, ratio: ratio, ci: ci, confidence: confidence, df: df, verdict: verdict, factors: [], line: nil).freeze
  end

  SLOWER = new(nil).difference(0.122, [0.097, 0.153])

  def measured(ratio, ci, verdict, df: 8.0) = Measured.new(ratio: ratio, ci: ci, verdict: verdict, confidence: 0.95, df: df, n: 5, baseline_n: 5)

  def share(d, m) = Ablation::Share.of(d, m)

  def word(d, m) = Ablation::Outcome.of(d, m, share(d, m))

  def outcome(ratio, ci, verdict) = word(SLOWER, measured(ratio, ci, verdict))

  # The cases of issue 34: both read "closes the gap" before.
  def test_a_follow_up_still_decided_slower_does_not_close_the_gap
    gap = difference(0.25, [0.245, 0.255])
    follow_up = measured(0.5, [0.26, 0.99], "slower")
    assert Rubyrig::Ablation::Outcome.within_margin?(follow_up), "it reaches the 2% margin, clear of the gap: what read \"closes\" before"
    refute_equal "closes the gap", word(gap, follow_up)
    assert_includes ["narrows it", "does not decide"], word(gap, follow_up)
  end

  def test_an_inconclusive_follow_up_that_removes_about_half_does_not_close_the_gap
    gap = difference(0.279, [0.24, 0.33])
    follow_up = measured(0.5, [0.42, 1.01], "inconclusive")
    assert_in_delta 1 - Math.log(0.5) / Math.log(0.279), share(gap, follow_up).estimate, 1e-12
    assert_operator share(gap, follow_up).ci[0], :<, 0.5, "the share removed is not decided to be most of the gap"
    assert_equal "narrows it", word(gap, follow_up)
  end

  # Fieller's interval from the two log ratios' standard errors, each read back from its interval.
  def test_the_share_interval_carries_both_runs_uncertainty
    se0 = Math.log(1.3) / Rubyrig::Stats.t_quantile(0.975, 8)
    se1 = Math.log(1.1) / Rubyrig::Stats.t_quantile(0.975, 8)
    l0 = Math.log(0.25)
    l1 = Math.log(0.9)
    gap = difference(0.25, [0.25 / 1.3, 0.25 * 1.3])
    follow_up = measured(0.9, [0.9 / 1.1, 0.9 * 1.1], "inconclusive")
    s = share(gap, follow_up)
    theta = l1 / l0
    df = (se1**2 + theta**2 * se0**2)**2 / (se1**4 / 8 + theta**4 * se0**4 / 8)
    assert_in_delta df, s.df, 1e-9
    q = Rubyrig::Stats.t_quantile(0.975, df)
    s.ci.each do |bound|
      t = 1 - bound
      assert_in_delta q**2 * (se1**2 + t**2 * se0**2), (l1 - t * l0)**2, 1e-9, "each bound solves Fieller's equation"
    end
    assert_operator s.ci[0], :<, s.estimate
    assert_operator s.ci[1], :>, s.estimate
    exact = share(difference(0.25, [0.25, 0.25], df: nil), follow_up)
    assert_operator s.ci[1] - s.ci[0], :>, exact.ci[1] - exact.ci[0], "the run's own spread widens the share's interval"
  end

  def test_a_gap_not_told_from_1_has_no_share
    gap = difference(0.99, [0.95, 1.03], "inconclusive")
    s = share(gap, measured(0.995, [0.97, 1.02], "equivalent"))
    refute s.defined?
    assert_match(/not told from 1/, s.reason)
    assert_equal "does not decide", Ablation::Outcome.of(gap, measured(0.995, [0.97, 1.02], "equivalent"), s)
  end

  def test_each_outcome
    assert_equal "closes the gap", outcome(1.0, [0.99, 1.01], "equivalent")
    assert_equal "closes the gap", outcome(0.974, [0.879, 1.079], "inconclusive"), "not decided apart, removing most of the gap"
    assert_equal "does not decide", outcome(0.5, [0.06, 4.0], "inconclusive"), "the share's interval holds 0 and most of the gap"
    assert_equal "narrows it", outcome(0.5, [0.4, 0.6], "slower")
    assert_equal "leaves it", outcome(0.13, [0.11, 0.16], "slower")
    assert_equal "widens it", outcome(0.05, [0.04, 0.06], "slower")
    assert_equal "reverses it", outcome(1.5, [1.3, 1.7], "faster")
    assert_equal "reverses it", outcome(1.05, [1.021, 1.08], "faster"), "wholly beyond the 2% margin"
    assert_equal "closes the gap", outcome(1.03, [1.004, 1.057], "faster"), "decided the other way, reaching into the margin"
    assert_equal "narrows it", outcome(0.97, [0.945, 0.995], "slower"), "still decided the same way: at best narrows, even in the margin"
    assert_equal "not measured", outcome(nil, nil, "not compared")
  end

  def test_what_would_decide_it
    follow_up = measured(0.5, [0.06, 4.0], "inconclusive")
    advice = Ablation::Outcome.advice(SLOWER, follow_up, share(SLOWER, follow_up), "does not decide")
    assert_match(/\Aabout \d+ batches per runtime \(this follow-up has 5\) would decide it in 80% of reruns/, advice)
    assert_nil Ablation::Outcome.advice(SLOWER, follow_up, share(SLOWER, follow_up), "narrows it")
    wide = difference(0.8, [0.8 * Math.exp(-0.21), 0.8 * Math.exp(0.21)])
    close = measured(0.95, [0.9, 1.0], "inconclusive")
    assert_match(/the run's own interval of the gap is too wide/, Ablation::Outcome.advice(wide, close, share(wide, close), "does not decide"))
  end

  def test_a_higher_ratio_closes_from_above
    higher = difference(3.0, [2.8, 3.2], "higher", metric: "peak_rss_bytes")
    assert_equal "closes the gap", word(higher, measured(1.1, [0.95, 1.3], "inconclusive"))
    assert_equal "narrows it", word(higher, measured(2.0, [1.8, 2.2], "higher"))
  end

  def row(switch, at, ratio, ci, verdict, was: "running 4 threads", point: {})
    m = measured(ratio, ci, verdict)
    s = share(SLOWER, m)
    o = Ablation::Outcome.of(SLOWER, m, s)
    Ablation::Answer::Row.new(switch: switch, name: "concurrency", point: point, at: at, was: was, why: "w", ratio: ratio, ci: ci,
      verdict: verdict, share: s, outcome: o, advice: Ablation::Outcome.advice(SLOWER, m, s, o), dir: "why/x/y", n: 5, baseline_n: 5)
  end

  def test_the_line_names_the_switch_that_closes_the_gap_with_its_share
    rows = [row("threads=1, 2", "at threads=1", 1.004, [0.985, 1.019], "equivalent", point: {"threads" => 1}),
      row("threads=1, 2", "at threads=2", 0.6, [0.5, 0.7], "slower", point: {"threads" => 2}),
      row("+mn on 3.3.8", "with +mn on 3.3.8", 0.13, [0.11, 0.16], "slower", was: "one native thread per Ruby thread")]
    share = Ablation::Outcome.share_text(rows.first.share)
    assert_match(/\A\d+% \[\d+%, \d+%\]\z/, share)
    assert_equal "the difference comes from running 4 threads: threads=1 removes #{share} of the gap (at threads=1 3.3.8 and system are " \
      "equivalent, 1.004x [0.985, 1.019], against 0.122x measured)", Ablation::Answer.build(SLOWER, rows, []).line
  end

  def test_a_closing_decided_the_other_way_within_the_margins_reach_says_so
    line = Ablation::Answer.build(SLOWER, [row("threads=1", "at threads=1", 1.03, [1.004, 1.057], "faster")], []).line
    assert_match(/\Athe difference comes from running 4 threads: threads=1 removes 10\d% \[\d+%, \d+%\] of the gap \(at threads=1 3\.3\.8 is 1\.030x \[1\.004, 1\.057\] system, faster within the equivalence margin's reach, against 0\.122x measured\)\z/, line)
  end

  def test_when_nothing_closes_the_line_says_what_narrows_and_what_would_decide
    rows = [row("+mn on 3.3.8", "with +mn on 3.3.8", 0.13, [0.11, 0.16], "slower"), row("a larger GC heap", "with a larger GC heap", 0.5, [0.4, 0.6], "slower"),
      row("YJIT off", "with YJIT off", 0.5, [0.06, 4.0], "inconclusive")]
    line = Ablation::Answer.build(SLOWER, rows, []).line
    assert line.start_with?("no switch tried closes the gap (+mn on 3.3.8; a larger GC heap; YJIT off); a larger GC heap narrows it, removing " \
      "#{Ablation::Outcome.share_text(rows[1].share)} of it (with a larger GC heap: 0.500x [0.400, 0.600]); YJIT off does not decide (removes "), line
    assert_includes line, "of it): about "
    assert line.end_with?("the cause is elsewhere or not decided: a profile (--profile) shows where the time goes"), line
  end

  def test_the_record_carries_the_share
    record = row("threads=1", "at threads=1", 1.004, [0.985, 1.019], "equivalent").to_record
    assert_equal %w[share share_ci share_confidence share_df share_reason], record.keys.grep(/\Ashare/)
    assert_equal 0.95, record["share_confidence"]
    refute record.key?("share_text")
  end
end
