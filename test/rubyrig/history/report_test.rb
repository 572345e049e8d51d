require "test_helper"
require "support/history_fixtures"

class HistoryReportTest < Minitest::Test
  include HistoryFixtures

  def build(series_list, changes = [], by: "time")
    finder = FakeFinder.new(changes)
    [Rubyrig::History::Report.build(series_list, by: by, finder: finder, seed: 7), finder]
  end

  def test_a_step_gives_its_change_point_with_the_sides_levels_and_the_sentence
    s = series([1.0] * 6 + [1.12] * 6)
    report, finder = build([s], [slower_at(6, 12)])
    entry = report.entries.first
    assert_equal 12, finder.calls.first[:samples].size
    assert_equal [], finder.calls.first[:breaks]
    assert_equal 7, finder.calls.first[:seed]
    change = entry.changes.first
    assert_equal 0..5, change.before
    assert_equal 6..11, change.after
    assert change.regression
    assert_in_delta 1.0, entry.levels.first.value, 0.001
    assert_in_delta 1.12, entry.levels.last.value, 0.001
    line = Rubyrig::History::Phrase.change(entry, change)
    assert_equal "12.0% [8.0%, 16.0%] slower from run 7 (2026-11-20T16:00, commit 0a1b2c9) on; no change before", line
    assert_same change, entry.new_regression
  end

  def test_a_throughput_drop_reads_slower_in_percent_of_the_before_side
    s = series([100.0] * 6 + [88.0] * 6, metric: "ops_per_s", unit: "1/s", higher_is_better: true)
    report, = build([s], [slower_at(6, 12, ratio: 0.88, low: 0.84, high: 0.92)])
    assert_match(/\A12\.0% \[8\.0%, 16\.0%\] slower from run 7/, Rubyrig::History::Phrase.change(report.entries.first, report.entries.first.changes.first))
  end

  def test_a_new_host_and_a_rebuilt_interpreter_cut_the_series_and_are_passed_as_breaks
    s = series([1.0] * 9, hosts: %w[a a a b b b b b b], builds: %w[x x x x x x y y y])
    report, finder = build([s])
    assert_equal [3, 6], finder.calls.first[:breaks]
    entry = report.entries.first
    texts = entry.cuts.map { |c| Rubyrig::History::Phrase.cut(entry, c) }
    assert_match(/\Ahost changed at run 4 .*, a → b: the runs on either side are not compared/, texts[0])
    assert_match(/\Ainterpreter rebuilt at run 7 /, texts[1])
    assert_equal 3, entry.levels.size
  end

  def test_an_improvement_or_an_old_regression_is_no_new_regression
    s = series([1.0] * 6 + [0.9] * 6)
    report, = build([s], [slower_at(6, 12, ratio: 0.9, low: 0.85, high: 0.95, verdict: "faster")])
    assert_nil report.entries.first.new_regression
    cut_after = series([1.0] * 4 + [1.2] * 4 + [1.2] * 4, hosts: %w[a a a a a a a a b b b b])
    report, = build([cut_after], [slower_at(4, 8)])
    assert_equal 4..7, report.entries.first.changes.first.after
    assert_nil report.entries.first.new_regression, "the host changed after it: the newest runs are not on its side"
  end

  def test_by_version_pools_each_runtimes_runs_into_one_point_in_version_order
    a = series([2.0, 2.0], runtime: "3.3.8", versions: %w[3.3.8 3.3.8])
    b = series([1.0], runtime: "3.1.2", versions: %w[3.1.2])
    c = series([1.5], runtime: "3.3.8+yjit", versions: %w[3.3.8])
    report, = build([a, b, c], by: "version")
    plain = report.entries.find { |e| e.runtime == "" }
    assert_equal %w[3.1.2 3.3.8], plain.marks.map(&:label)
    assert_equal 10, plain.marks.last.values.size
    assert_empty plain.cuts, "a new version is the axis itself"
    assert_equal ["+yjit"], report.entries.map(&:runtime) - [""]
  end

  def test_by_commit_pools_the_runs_of_one_revision
    s = series([1.0, 1.0, 1.1])
    s.points[1].revision = s.points[0].revision
    report, = build([s], by: "commit")
    assert_equal 2, report.entries.first.marks.size
    assert_equal 10, report.entries.first.marks.first.values.size
  end

  def test_each_point_has_its_median_and_an_interval
    report, = build([series([1.0, 2.0])])
    mark = report.entries.first.marks.first
    assert_in_delta 1.0, mark.median, 1e-9
    assert_equal "range", mark.interval_kind, "5 batches are too few for the median's 95% interval"
    assert_in_delta 0.99, mark.interval[0], 1e-9
  end

  def test_hosts_that_take_turns_make_a_series_each_instead_of_a_cut_at_every_run
    s = series([1.0] * 8, hosts: %w[a b a b a b a b])
    report, finder = build([s])
    assert_equal %w[a b], report.entries.map(&:host)
    assert_equal [4, 4], report.entries.map { |e| e.marks.size }
    assert_equal [[], []], finder.calls.map { |c| c[:breaks] }
    assert_match(/ · host a\z/, Rubyrig::History::Phrase.series(report.entries.first))
  end
end
