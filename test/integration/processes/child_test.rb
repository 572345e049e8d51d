require "test_helper"

# Real child processes: exit status and usage, deadlines, stopping a whole group, pinning, capture.
class ChildTest < Minitest::Test
  include SlowTest

  def alive?(pid)
    Process.kill(0, pid)
    !File.binread("/proc/#{pid}/stat").split[2].eql?("Z")
  rescue Errno::ESRCH, Errno::ENOENT
    false
  end

  def test_exit_status_wall_time_and_usage
    child = Rubyrig::Processes::Child.spawn(["ruby", "-e", "x = 0; 2_000_000.times { x += 1 }; exit 3"])
    exit = child.wait
    assert_equal 3, exit.status
    assert_nil exit.signal
    assert_operator exit.wall_s, :>, 0
    assert_operator exit.cpu_user_s, :>, 0
    assert_operator exit.max_rss_bytes, :>, 1_000_000
    refute exit.success?
  end

  def test_wait_with_a_deadline_returns_nil_while_running
    child = Rubyrig::Processes::Child.spawn(["sleep", "5"])
    assert_nil child.wait(timeout_s: 0.05)
    child.stop
    assert_equal "TERM", child.wait.signal
  end

  def test_stop_takes_down_the_whole_group_including_grandchildren
    dir = tmpdir
    pidfile = File.join(dir, "grandchild.pid")
    child = Rubyrig::Processes::Child.spawn(["sh", "-c", "sleep 300 & echo $! > #{pidfile}; wait"])
    grandchild = wait_for { File.size?(pidfile) && Rubyrig::Processes::TextFile.read(pidfile).to_i }
    assert alive?(grandchild)
    child.stop
    # A killed process still has to be scheduled to exit: waited for, not slept on.
    wait_for(timeout_s: 30, message: "the grandchild dies with its group") { !alive?(grandchild) }
  end

  def test_a_child_that_ignores_term_is_killed_after_the_grace_period
    out = File.join(tmpdir, "o")
    child = Rubyrig::Processes::Child.spawn(["ruby", "-e", "trap('TERM') {}; $stdout.sync = true; puts 1; sleep 30"], out: out)
    wait_for { File.size?(out) } # the trap is in place once it prints
    child.stop(grace_s: 0.2)
    assert_equal "KILL", child.wait.signal
  end

  def test_pinning_to_cpus
    # spawn returns once the child has exec'd, and it pins itself before that.
    child = Rubyrig::Processes::Child.spawn(["sleep", "30"], cpus: "0")
    allowed = Rubyrig::Processes::TextFile.read("/proc/#{child.pid}/status")[/^Cpus_allowed_list:\s*(\S+)/, 1]
    assert_equal "0", allowed
  ensure
    child&.stop
  end

  def test_capture_returns_output
    out, err, exit = Rubyrig::Processes::Child.capture(["ruby", "-e", "puts 42; warn 7"])
    assert_equal "42\n", out
    assert_equal "7\n", err
    assert exit.success?
  end

  def test_capture_enforces_its_deadline
    assert_raises(Rubyrig::Processes::Child::Timeout) { Rubyrig::Processes::Child.capture(["sleep", "5"], timeout_s: 0.1) }
  end

  def test_a_missing_program_is_a_clear_error
    e = assert_raises(Rubyrig::ToolMissing) { Rubyrig::Processes::Child.spawn(["definitely-not-here-rubyrig"]) }
    assert_match(/cannot run definitely-not-here-rubyrig: no such executable/, e.message)
  end
end
