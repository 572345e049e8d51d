# `rubyrig why`'s usage errors: one line that names the fix, before anything runs.
require "test_helper"

class WhyCommandTest < Minitest::Test
  def test_it_needs_one_results_directory
    status, _, err = run_cli("why")
    assert_one_line_error(status, err, /give one results directory, e\.g\. rubyrig why /, expected_status: 2)
  end

  def test_a_budget_is_a_duration
    status, _, err = run_cli("why", tmpdir, "--budget", "soon")
    assert_one_line_error(status, err, /--budget must be a duration such as 90s, 10m or 1h30m, got 'soon'/, expected_status: 2)
  end

  def test_follow_ups_need_two_batches
    status, _, err = run_cli("why", tmpdir, "--batches", "1")
    assert_one_line_error(status, err, /--batches must be at least 2/, expected_status: 2)
  end

  def test_a_directory_without_a_run_and_an_unfinished_run_are_refused
    dir = tmpdir
    status, _, err = run_cli("why", dir)
    assert_one_line_error(status, err, /is not a rubyrig results directory \(no run\.json\)/)
    File.write(File.join(dir, "run.json"), JSON.generate("format_version" => 2, "command" => "compare", "experiment" => {}))
    status, _, err = run_cli("why", dir)
    assert_one_line_error(status, err, /has not finished; complete it with `rubyrig run --resume #{Regexp.escape(dir)}`, then ask why/, expected_status: 2)
  end

  def test_a_run_another_rubyrig_holds_is_refused
    dir = tmpdir
    File.write(File.join(dir, "run.json"), JSON.generate("format_version" => 2, "finished_at" => "2026-11-26T02:00:00Z", "experiment" => {}))
    holder = Rubyrig::Results::Store.open(dir).tap(&:lock!)
    status, _, err = run_cli("why", dir)
    assert_one_line_error(status, err, /is in use by another rubyrig process \(pid #{Process.pid}\)/)
  ensure
    holder&.unlock
  end

  def test_the_help_names_the_defaults
    status, out, = run_cli("why", "--help")
    assert_equal 0, status
    assert_includes out, "(default: 10m)"
    Rubyrig::Ablation::GC_ENV.each { |name, value| assert_includes out, "#{name}=#{value}" }
  end
end
