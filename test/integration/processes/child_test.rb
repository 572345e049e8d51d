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

  # The timer starts the command on its own CPU and with a short time slice of its own: the command
  # still runs as the caller would run it, on every CPU the caller may use and with the default slice.
  def test_the_command_gets_the_callers_cpus_and_the_default_time_slice
    script = "grep -E '^(Cpus_allowed_list|se.slice)' /proc/self/status /proc/self/sched | sed 's/.*://'"
    plain = IO.popen(["sh", "-c", script], &:read).split
    out, _err, exit = Rubyrig::Processes::Child.capture(["sh", "-c", script])
    assert exit.success?
    assert_equal plain, out.split
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

  def clock = Process.clock_gettime(Process::CLOCK_MONOTONIC)

  # The command reads the clock at its first line and at its last: rubyrig's interval must hold both,
  # and lie within what the caller saw from before the spawn to after the wait. A process with one
  # thread cannot spend more CPU time (its rusage, its clone's few instructions before the exec
  # included) than the caller waited for it.
  def test_the_interval_holds_the_commands_whole_life_and_lies_within_the_callers
    file = File.join(tmpdir, "clock")
    script = "c = Process::CLOCK_MONOTONIC; t = Process.clock_gettime(c); x = 0; 300_000.times { x += 1 }; " \
      "File.write(ARGV[0], [t, Process.clock_gettime(c)].pack('E2'))"
    before = clock
    child = Rubyrig::Processes::Child.spawn([RbConfig.ruby, "--disable-gems", "-e", script, file])
    exit = child.wait
    after = clock
    first, last = File.binread(file).unpack("E2")
    finished = child.started_at + exit.wall_s
    assert_operator before, :<=, child.started_at
    assert_operator child.started_at, :<, first, "the interval starts before the command's first line"
    assert_operator last, :<, finished, "and ends after its last"
    assert_operator finished, :<=, after
    assert_operator exit.cpu_user_s + exit.cpu_sys_s, :<=, after - before
  end

  # The end from above, without root: from the command's last line to the timer's end reading is the
  # command's exit (Ruby's teardown, the kernel's) and the timer's wake. A plain Process.spawn and
  # Process.wait of the same command, in the same rounds, sees the same exit and a Ruby waiter's slower
  # wake, so the timer's least gap is no longer than the plain waiter's least gap, give or take half of
  # a 50 ms late end reading (the least of five rounds each: noise only lengthens a gap).
  def test_the_interval_ends_no_later_after_the_commands_last_line_than_a_plain_wait_sees_it_end
    file = File.join(tmpdir, "clock")
    argv = [RbConfig.ruby, "--disable-gems", "-e", "File.write(ARGV[0], [Process.clock_gettime(Process::CLOCK_MONOTONIC)].pack('E'))", file]
    last = -> { File.binread(file).unpack1("E") }
    bare = {"RUBYOPT" => nil} # not bundler's setup, which bundle exec passes on
    timer, plain = 5.times.map { |_round|
      child = Rubyrig::Processes::Child.spawn(argv, env: bare)
      exit = child.wait
      timer_gap_s = child.started_at + exit.wall_s - last.call
      Process.wait(Process.spawn(bare, *argv))
      [timer_gap_s, clock - last.call]
    }.transpose.map(&:min)
    assert_operator timer, :<=, plain + 0.025, "the timer reads its end clock as soon as wait4 returns"
  end

  # The kernel's start time of the command (its clone, in clock ticks since boot, rounded down;
  # /proc/PID/stat field 22) comes before the interval starts: the clock is read once the command is
  # started, at its exec, so that creating the process is not in its figure.
  def test_the_interval_starts_after_the_kernel_started_the_command
    child = Rubyrig::Processes::Child.spawn(["sleep", "5"])
    ticks = File.binread("/proc/#{child.pid}/stat").split(") ").last.split[19].to_i
    monotonic = clock
    offset = Process.clock_gettime(Process::CLOCK_BOOTTIME) - monotonic # at least the true offset: the safe side
    assert_operator ticks.to_f / Etc.sysconf(Etc::SC_CLK_TCK), :<=, child.started_at + offset
  ensure
    child&.stop
  end

  # The kernel's own record (the proc connector's fork, exec and exit events, on the monotonic clock,
  # root only): the interval starts after the command's clone, at its exec, before its first line runs,
  # and ends after its exit, as soon as the timer wakes from wait4: within 10 ms of the kernel's exit
  # in the least of five runs (a late wake only lengthens one). The exec event comes 10-30 us after the
  # start (that ordering is not asserted: both follow the exec's point of no return, on two CPUs).
  def test_the_interval_starts_at_the_exec_and_ends_after_the_exit_as_the_kernel_records_them
    require File.join(RubyrigTest::ROOT, "bench/overhead_support/kernel_events")
    # The connector names pids as the machine's first PID namespace sees them (a fresh-machine check's
    # chroot has its own), so only there can it name this test's command.
    unless Rubyrig::Processes::ExitCause.initial_pid_namespace?
      skip "the proc connector names pids as the first PID namespace sees them, and this test runs in another"
    end
    needs_root("the proc connector (the kernel's process events)")
    events = KernelEvents.open
    needs(events, KernelEvents.why_not)
    file = File.join(tmpdir, "clock")
    runs = 5.times.map do
      child = Rubyrig::Processes::Child.spawn([RbConfig.ruby, "--disable-gems", "-e",
        "File.write(ARGV[0], [Process.clock_gettime(Process::CLOCK_MONOTONIC)].pack('E'))", file], env: {"RUBYOPT" => nil})
      [child, child.wait, File.binread(file).unpack1("E")]
    end
    lives = events.lives(Process.pid, depth: 2) # this process -> the timer -> the command
    lates = runs.map do |child, exit, first|
      life = lives.find { |l| l.pid == child.pid }
      refute_nil life&.fork_s, "the kernel reported the command's fork, exec and exit"
      assert_operator life.fork_s, :<=, child.started_at
      assert_operator child.started_at, :<, first, "the interval starts before the command's first line"
      assert_operator life.exit_s, :<=, child.started_at + exit.wall_s
      child.started_at + exit.wall_s - life.exit_s
    end
    assert_operator lates.min, :<=, 0.010, "the timer reads its end clock as soon as wait4 returns"
  ensure
    events&.close
  end
end
