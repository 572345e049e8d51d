require "test_helper"
require "support/history_runs"

# `rubyrig history HISTORY`: a store's series with their change points, filters, formats and the gate,
# from results directories written as a run writes them.
class HistoryShowCommandTest < Minitest::Test
  include RubyrigTest
  include HistoryRuns

  # 12 runs on one host, iterations_per_s about 100/s, 12% lower from run 7 on when step.
  def history(step: true, hosts: nil)
    dir = tmpdir
    store = Rubyrig::History::Store.new(File.join(dir, "history"))
    rng = Random.new(4)
    12.times do |i|
      level = (step && i >= 6) ? 88.0 : 100.0
      values = Array.new(5) { level * (1 + 0.02 * (rng.rand - 0.5)) }
      run = write_history_run(File.join(dir, "run-#{i}"), created_at: format("2026-11-%02dT10:00:00Z", i + 1),
        values: {"system" => values}, host: hosts ? hosts[i] : "alpha", revision: {"commit" => format("%07x%033d", 0xabc000 + i, 0), "dirty" => false})
      store.add(run)
    end
    store.path
  end

  def show(*args, env: {}) = run_cli("history", *args, env: env)

  def test_a_step_is_one_decided_change_point_at_run_7_and_fails_the_gate_with_one_line
    path = history
    status, out, err = show(path, "--fail-if", "regressed")
    assert_equal 3, status, out + err
    assert_match(/^builtin:nbody · steps=100 · iterations_per_s on system \(higher is better; 12 runs by time\)$/, out)
    assert_match(/^  ▼ 1\d\.\d% \[\d+\.\d%, \d+\.\d%\] slower from run 7 \(2026-11-07T10:00, commit 0abc006\) on; no change before$/, out)
    assert_equal 1, err.lines.size
    assert_match(/\Arubyrig: new regression: builtin:nbody · steps=100 · iterations_per_s on system: .* slower from run 7 /, err)
  end

  def test_since_leaves_an_accepted_regression_out_of_the_gate
    status, out, err = show(history, "--since", "2026-11-07", "--fail-if", "regressed")
    assert_equal 0, status, err
    assert_includes out, "(higher is better; 6 runs by time)\n  no change point in 6 runs"
    status, _, err = show(history, "--since", "last week")
    assert_equal 2, status
    assert_includes err, "--since needs a date or time such as 2026-12-01"
  end

  def test_a_flat_history_has_no_change_point_and_passes_the_gate
    status, out, err = show(history(step: false), "--fail-if", "regressed")
    assert_equal 0, status, err
    assert_includes out, "no change point in 12 runs"
  end

  def test_formats_filters_and_the_html_file
    path = history
    html = File.join(tmpdir, "history.html")
    _, out, = show(path, "--format", "json", "--metric", "all", "--html", html)
    data = JSON.parse(out)
    assert_equal %w[iterations_per_s wall_s], data["series"].map { |s| s["metric"] }.sort
    assert_equal [6], data["series"].flat_map { |s| s["change_points"].map { |c| c["index"] } }.uniq
    assert_includes Rubyrig::Processes::TextFile.read(html), %(class="change-point" data-index="6")
    _, out, = show(path, "--format", "markdown")
    assert_match(/^- \*\*builtin:nbody · steps=100 · iterations_per_s on system: .* slower\*\* from run 7/, out)
    status, _, err = show(path, "--metric", "wal_s")
    assert_equal 2, status
    assert_equal "rubyrig: error: no series in the history has --metric wal_s; did you mean 'wall_s'?\n", err
  end

  def test_the_summary_goes_to_the_github_step_summary
    summary = File.join(tmpdir, "summary.md")
    show(history, "--fail-if", "regressed", env: {"GITHUB_STEP_SUMMARY" => summary})
    text = Rubyrig::Processes::TextFile.read(summary)
    assert_includes text, "## rubyrig history (1 series by time)"
    assert_includes text, "**rubyrig history --fail-if regressed**: failed"
  end

  def test_a_new_host_cuts_the_series_and_is_never_a_change
    _, out, = show(history(step: false, hosts: %w[a a a a a a b b b b b b]))
    assert_includes out, "| host changed at run 7 (2026-11-07T10:00, commit 0abc006), a → b: the runs on either side are not compared"
  end

  def test_one_run_over_two_ruby_versions_reads_as_a_series_by_version
    dir = tmpdir
    store = Rubyrig::History::Store.new(File.join(dir, "history"))
    store.add(write_history_run(File.join(dir, "run"), created_at: "2026-11-28T10:00:00Z",
      values: {"system" => [100.0, 101.0, 99.0], "3.3.8" => [130.0, 131.0, 129.0]}, interpreters: {"3.3.8" => BUILT}))
    status, out, err = show(store.path, "--by", "version", "--runs")
    assert_equal 0, status, err
    assert_includes out, "builtin:nbody · steps=100 · iterations_per_s (higher is better; 2 versions)"
    assert_match(/^    1  3\.1\.2 \(system\) .* 100\.0\/s .*\n    2  3\.3\.8 .* 130\.0\/s/, out)
    refute_includes out, "cut", "a new version is the axis, not a cut"
    assert_match(/^  ▲ 30\.0% \[\d+\.\d%, \d+\.\d%\] faster from 3\.3\.8 on; no change before$/, out)
    assert_includes out, "Change points: each version compared with the one before on their batches"
  end
end
