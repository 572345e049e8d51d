require "test_helper"

# Ctrl-C (SIGINT) stops rubyrig within 5 s, kills the measured processes and keeps the finished batches.
class InterruptTest < Minitest::Test
  include SlowTest

  def test_ctrl_c_stops_quickly_keeps_results_and_leaves_no_process
    dir = tmpdir
    run = File.join(dir, "run")
    pid = spawn_rubyrig("compare", "-r", "system", "--batches", "20", "--results", run,
      "--", "ruby", "-e", "trap('TERM') {}; sleep 1", dir: dir)
    wait_for { trial_lines(run).size >= 2 }
    wait_for { !processes_mentioning(run).empty? }
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    Process.kill("INT", pid)
    _, status = Process.wait2(pid)
    elapsed = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
    assert_operator elapsed, :<, 5.0, "Ctrl-C must stop the run within 5 s (the child ignores TERM)"
    assert_equal 130, status.exitstatus
    assert_empty processes_mentioning(run)
    kept = trial_lines(run)
    assert_operator kept.size, :>=, 2
    assert(kept.all? { |t| t["status"] == "ok" })
    assert_match(/continue with `rubyrig run --resume #{Regexp.escape(run)}`/, Rubyrig::Processes::TextFile.read(File.join(dir, "rubyrig.err")))
    assert Rubyrig::Processes::TextFile.json(File.join(run, "run.json"))["interrupted_at"]
  end
end
