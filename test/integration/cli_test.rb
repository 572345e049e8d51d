require "test_helper"

# The CLI end to end where it resolves real interpreters or runs batches: one-line errors, --debug's
# backtrace, a failed sweep's report.
class CLIIntegrationTest < Minitest::Test
  include SlowTest

  def test_unknown_runtime
    status, _, err = run_cli("compare", "-r", "9.9.9", "--results", File.join(tmpdir, "r"), "--", "builtin:nbody")
    assert_one_line_error(status, err, /no interpreter matches runtime '9\.9\.9': build it with `rubyrig build 9\.9\.9`; found system/)
  end

  def test_parsing_an_http_experiment_does_not_need_wrk
    dir = tmpdir
    write(dir, "exp.yml", "runtimes: [system]\nworkloads:\n  - builtin: rack-hello\n    wrk: wrk-not-installed\n")
    experiment = Rubyrig::Experiment.load(File.join(dir, "exp.yml"))
    assert_equal "http", experiment.workloads.first.kind
    status, _, err = run_cli("run", File.join(dir, "exp.yml"), "--results", File.join(dir, "run"))
    assert_one_line_error(status, err, /wrk-not-installed is not installed or not executable: install it/)
    refute File.exist?(File.join(dir, "run")), "stopped before the run started"
  end

  def test_debug_shows_the_backtrace
    status, _, err = run_cli("--debug", "compare", "-r", "9.9.9", "--", "builtin:nbody")
    assert_equal 1, status
    assert_operator err.lines.size, :>, 2
    assert_match(/catalog\.rb/, err)
  end

  def test_a_sweep_whose_batches_all_failed_is_reported_without_a_chart
    run = File.join(tmpdir, "run")
    status, out, err = run_cli("compare", "-r", "system", "--param", "threads=1,2", "-b", "3", "--results", run, "--", "false")
    assert_equal 1, status, err
    assert_match(/^rubyrig: 6 batches failed; the reasons are in the warnings above$/, err)
    assert_match(/Results: /, out)
    html = Rubyrig::Processes::TextFile.read(File.join(run, "report.html"))
    assert_includes html, "Sweep over threads"
    refute_includes html, 'data-figure="sweep"'
  end
end
