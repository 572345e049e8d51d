# `rubyrig history add` and the series through the CLI: what it prints, its exit statuses, and the one
# line that refuses a damaged history or a run that has not finished.
require "test_helper"
require "support/history_runs"

class HistoryCommandTest < Minitest::Test
  include RubyrigTest
  include HistoryRuns

  def setup
    @root = tmpdir
    @history = File.join(@root, "history")
    @first = write_history_run(File.join(@root, "r1"), created_at: "2026-11-01T10:00:00Z", values: {"system" => [10.0, 11.0]})
    @second = write_history_run(File.join(@root, "r2"), created_at: "2026-11-02T10:00:00Z", values: {"system" => [12.0, 13.0]}, host: "beta")
  end

  def test_add_reports_each_run_and_a_run_added_again_adds_nothing
    status, out, err = run_cli("history", "add", @history, @first, @second)
    assert_equal [0, ""], [status, err]
    assert_equal ["#{@first}: added to #{@history} (2 series points)", "#{@second}: added to #{@history} (2 series points)"], out.lines.map(&:chomp)
    status, out, = run_cli("history", "add", @history, @first)
    assert_equal [0, "#{@first}: already in #{@history}\n"], [status, out]
  end

  def test_the_history_shows_each_primary_series_with_its_runs
    run_cli("history", "add", @history, @first, @second)
    status, out, = run_cli("history", @history)
    assert_equal 0, status
    assert_equal ["builtin:nbody · steps=100 · iterations_per_s on system (higher is better; 2 runs by time)",
      "  | host changed at run 2 (2026-11-02T10:00), alpha → beta: the runs on either side are not compared"], out.lines.first(2).map(&:chomp)
  end

  def test_wrong_usage_prints_the_help
    status, out, = run_cli("history", "add", @history)
    assert_equal 2, status
    assert_match(/Usage: rubyrig history HISTORY/, out)
  end

  def test_a_damaged_history_and_an_unfinished_run_are_one_line_each
    run_cli("history", "add", @history, @first)
    file = Dir[File.join(@history, "runs", "*.json")].first
    File.write(file, "{\"format_version\": 1, ")
    status, _, err = run_cli("history", @history)
    assert_one_line_error(status, err, /#{Regexp.escape(file)} is damaged \(not valid JSON.*add its run again/)
    unfinished = write_history_run(File.join(@root, "r3"), created_at: "2026-11-03T10:00:00Z", values: {"system" => [1.0]}, finished: false)
    status, _, err = run_cli("history", "add", File.join(@root, "other"), unfinished)
    assert_one_line_error(status, err, /has not finished .*rubyrig run --resume/)
  end

  def test_run_refuses_a_history_that_cannot_take_the_run_before_running
    folder = File.join(@root, "mine")
    FileUtils.mkdir_p(folder)
    File.write(File.join(folder, "notes.txt"), "x")
    status, _, err = run_cli("run", File.join(@root, "missing.yml"), "--history", folder)
    assert_one_line_error(status, err, /mine is not a rubyrig history \(no history.json\) and not empty/)
  end
end
