require "test_helper"
require "support_report"

class AnalysisTest < Minitest::Test
  include SupportReport

  def test_summaries_per_cell_and_metric
    report = synthetic_report
    s = report.summary("fast | builtin:nbody | n=1", "iterations_per_s")
    assert_equal 5, s.n
    assert_in_delta 12.0, s.median
    assert_equal "1/s", s.unit
  end

  def test_a_clear_speedup_is_faster_with_a_ci
    report = synthetic_report
    c = report.comparison("fast", "builtin:nbody", {"n" => 1}, "iterations_per_s")
    assert_in_delta 1.2, c.ratio, 0.005
    assert_operator c.ci[0], :>, 1.0
    assert_operator c.ci[1], :>, c.ci[0]
    assert_operator c.p_value, :<, 1e-6
    assert_in_delta 0.95, c.confidence, 1e-12
    assert_equal "Welch t on log values", c.method_name
    assert_equal "faster", c.verdict
    assert_equal "base", c.baseline
  end

  # Batches 1-3 on one host and 4-6 on another 30% slower: compared within each host, no variation
  # warning from the hosts' gap, and a warning naming the hosts when their effects go opposite ways.
  def test_a_run_from_two_hosts_is_compared_within_each_host
    meta = synthetic_meta(batches: 6)
    slow = ->(n) { (n > 3) ? 1.3 : 1.0 }
    same = ->(runtime, _params, n) { 10.0 * slow.call(n) * (1 + 0.001 * n) * ((runtime == "fast") ? 1.1 : 1.0) }
    hosts = ->(trials) { trials.map { |t| Rubyrig::Results::Trial.new(**t.to_h, host_id: (t.batch > 3) ? "b" : "a") } }
    report = Rubyrig::Analysis.new.analyze(meta: meta, trials: hosts.call(synthetic_trials(meta, same)))
    c = report.comparison("fast", "builtin:nbody", {"n" => 1}, "iterations_per_s")
    assert_equal %w[a b], c.hosts.map(&:host)
    assert_equal "faster", c.verdict
    refute c.heterogeneity.disagree
    assert_empty report.warnings.grep(/varies a lot|disagree/)

    opposite = ->(runtime, _params, n) {
      10.0 * slow.call(n) * (1 + 0.001 * n) * (if runtime == "fast"
                                                 (n > 3) ? 0.8 : 1.2
                                               else
                                                 1.0
      end)
    }
    report = Rubyrig::Analysis.new.analyze(meta: meta, trials: hosts.call(synthetic_trials(meta, opposite)))
    assert_equal 1, report.warnings.grep(/fast against base, iterations\/s: the hosts disagree more than noise explains .*a 1\.200x, b 0\.800x; hosts a and b go different ways/).size
  end

  def test_memory_changes_are_higher_or_lower_not_faster
    report = synthetic_report(values: {"base" => [10.0, 10.1, 9.9, 10.05, 9.95], "fast" => [1200.0, 1210.0, 1190.0, 1205.0, 1195.0]})
    c = report.comparison("fast", "builtin:nbody", {"n" => 1}, "peak_rss_bytes")
    assert_equal "higher", c.verdict
  end

  def test_a_tiny_real_difference_within_the_margin_is_equivalent
    report = synthetic_report
    c = report.comparison("fast", "builtin:nbody", {"n" => 1}, "peak_rss_bytes")
    assert_equal "equivalent", c.verdict
    assert_match(/a real difference, smaller than the margin/, c.reason)
  end

  def test_overlapping_runtimes_are_inconclusive_with_what_would_decide_it
    report = synthetic_report(values: {"base" => [10.0, 10.3, 9.8, 10.1, 9.9], "fast" => [10.1, 9.9, 10.2, 9.85, 10.0]})
    c = report.comparison("fast", "builtin:nbody", {"n" => 1}, "iterations_per_s")
    assert_equal "inconclusive", c.verdict
    assert_match(/includes 1 and is not within ±2%; about \d+ more batch(es)? per runtime would decide it/, c.reason)
  end

  def test_a_margin_per_metric_is_taken_from_the_run
    meta = synthetic_meta
    meta["decision"] = {"equivalence" => 0.02, "equivalence_by_metric" => {"iterations_per_s" => 0.5}, "looks" => 1}
    report = Rubyrig::Analysis.new.analyze(meta: meta, trials: synthetic_trials(meta, {"base" => [10.0, 10.1, 9.9, 10.05, 9.95], "fast" => [12.0, 12.1, 11.9, 12.05, 11.95]}))
    c = report.comparison("fast", "builtin:nbody", {"n" => 1}, "iterations_per_s")
    assert_equal "equivalent", c.verdict, "a 20% change is within a 50% margin"
    assert_equal 0.5, c.margin
  end

  def test_holm_is_applied_across_the_comparisons_of_a_metric
    runtimes = %w[base r1 r2 r3 r4 r5 r6 r7]
    values = runtimes.to_h { |r| [r, (r == "base") ? [10.0, 10.1, 9.9, 10.05, 9.95] : [12.0, 12.1, 11.9, 12.05, 11.95]] }
    report = synthetic_report(runtimes: runtimes, values: values)
    comparisons = report.comparisons.select { |c| c.metric == "iterations_per_s" }
    assert_equal 7, comparisons.size
    comparisons.each do |c|
      assert_in_delta [7 * c.p_value, 1.0].min, c.p_adjusted, 1e-12
      assert_in_delta 1 - 0.05 / 7, c.confidence, 1e-12
      assert_equal "Welch t on log values, Bonferroni over 7 comparisons", c.method_name
      assert_equal "faster", c.verdict, "a 20% change at CV 1% is called even among 7 runtimes at 5 batches"
    end
  end

  def test_warnings_for_failed_batches_few_batches_and_variation
    values = {"base" => [10.0, 14.0, 9.0, 10.05, 12.0], "fast" => [12.0, 12.1, 11.9, 12.05, 11.95]}
    report = synthetic_report(values: values, status: {"c1-b2" => "failed"})
    text = report.warnings.join("\n")
    assert_match(/fast \| builtin:nbody \| n=1: 1 failed batch \(exited with status 1: boom\)/, text)
    refute_match(/only 4 ok batches/, text, "4 batches are enough for the t test")
    assert_match(/base \| builtin:nbody \| n=1: iterations\/s varies a lot between batches \(CV \d+\.\d% > 5%\)/, text)
  end

  def test_too_few_batches_everywhere_is_one_line
    report = synthetic_report(batches: 1, values: {"base" => [1.0], "fast" => [2.0]})
    assert_includes report.warnings, "every cell has only 1 ok batch; statistics need #{Rubyrig::Analysis::Inference::MIN_BATCHES} or more (--batches)"
  end

  def test_many_varying_cells_make_one_line
    noisy = [10.0, 14.0, 9.0, 10.05, 12.0]
    runtimes = %w[base r1 r2 r3]
    report = synthetic_report(runtimes: runtimes, values: runtimes.to_h { |r| [r, noisy] })
    lines = report.warnings.grep(/vary more than 5%/)
    assert_equal 1, lines.size
    assert_match(/\A4 of 4 cells vary more than 5% between batches \(CV 18\.\d% to 18\.\d%, most in \S+ \| builtin:nbody \| n=1\)/, lines.first)
    assert_empty report.warnings.grep(/varies a lot/)
  end

  def test_a_busy_host_is_reported
    meta = synthetic_meta
    meta["host"]["load_average"] = [1.9, 1.0, 0.5]
    trials = synthetic_trials(meta, {"base" => [1.0] * 5, "fast" => [1.0] * 5})
    report = Rubyrig::Analysis.new.analyze(meta: meta, trials: trials)
    assert(report.warnings.any? { |w| w.include?("the host was busy before the run (load 1.90 on 2 cores)") })
  end

  def test_the_same_inputs_give_the_same_report
    a = synthetic_report.comparisons.map(&:ci)
    b = synthetic_report.comparisons.map(&:ci)
    assert_equal a, b
  end

  def test_a_zero_rate_is_refused_with_a_warning_not_a_p_of_zero
    report = synthetic_report(values: {"base" => [10.0, 10.1, 9.9, 10.05, 9.95], "fast" => [0.0, 12.1, 11.9, 12.05, 11.95]})
    c = report.comparison("fast", "builtin:nbody", {"n" => 1}, "iterations_per_s")
    assert_equal "not compared", c.verdict
    assert_nil c.ratio
    assert_nil c.ci
    assert_nil c.p_value
    assert_match(/a batch reported 0\.0; a ratio needs positive values/, c.reason)
    assert_includes report.warnings, "fast | builtin:nbody | n=1: iterations/s not compared: a batch reported 0.0; a ratio needs positive values"
    text = Rubyrig::Reporters::Terminal.new(report).render
    assert_match(/^    fast .* not compared$/, text)
  end

  def test_every_section_is_computed_once_before_rendering
    report = synthetic_report
    assert report.frozen?
    %i[summaries comparisons http sweeps yjit_memory profiles traces warnings primary].each do |section|
      refute_nil report[section], section
    end
  end
end
