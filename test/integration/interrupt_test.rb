require "test_helper"

# Ctrl-C (SIGINT) stops rubyrig at once, kills the measured processes and keeps the finished batches.
class InterruptTest < Minitest::Test
  include SlowTest

  def test_ctrl_c_stops_quickly_keeps_results_and_leaves_no_process
    dir = tmpdir
    run = File.join(dir, "run")
    pid = spawn_rubyrig("compare", "-r", "system", "--batches", "20", "--results", run,
      "--", "ruby", "-e", "trap('TERM') {}; sleep 1", dir: dir)
    wait_for { trial_lines(run).size >= 2 }
    wait_for { !processes_mentioning(run).empty? }
    finished = trial_lines(run).size
    Process.kill("INT", pid)
    _, status = Process.wait2(pid)
    assert_equal 130, status.exitstatus
    assert_empty processes_mentioning(run)
    kept = trial_lines(run)
    # Stopped at once: no batch started after Ctrl-C (the one running then may have just finished).
    assert_operator kept.size, :>=, 2
    assert_operator kept.size, :<=, finished + 1, "no batch started after Ctrl-C"
    assert(kept.all? { |t| t["status"] == "ok" })
    assert_match(/continue with `rubyrig run --resume #{Regexp.escape(run)}`/, Rubyrig::Processes::TextFile.read(File.join(dir, "rubyrig.err")))
    assert Rubyrig::Processes::TextFile.json(File.join(run, "run.json"))["interrupted_at"]
  end
end
