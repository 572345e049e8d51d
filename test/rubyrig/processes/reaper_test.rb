require "test_helper"

# wait4's status and usage decoded, and the clock read once wait4 has returned.
class ReaperTest < Minitest::Test
  # struct rusage as 18 longs: utime (s, us), stime (s, us), maxrss (KiB), ..., nvcsw, nivcsw.
  def fields(user_s:, user_us:, sys_s:, sys_us:, maxrss_kib:, voluntary:, involuntary:)
    [user_s, user_us, sys_s, sys_us, maxrss_kib] + [0] * 11 + [voluntary, involuntary]
  end

  def test_exit_status_signal_and_usage
    usage = Rubyrig::Processes::Reaper.decode(3 << 8, fields(user_s: 1, user_us: 250_000, sys_s: 0, sys_us: 500_000, maxrss_kib: 2048, voluntary: 7, involuntary: 9))
    assert_equal 3, usage.status
    assert_nil usage.signal
    assert_in_delta 1.25, usage.cpu_user_s
    assert_in_delta 0.5, usage.cpu_sys_s
    assert_equal 2048 * 1024, usage.max_rss_bytes
    assert_equal [7, 9], [usage.voluntary_ctx_switches, usage.involuntary_ctx_switches]
    assert_equal "KILL", Rubyrig::Processes::Reaper.decode(9, fields(user_s: 0, user_us: 0, sys_s: 0, sys_us: 0, maxrss_kib: 0, voluntary: 0, involuntary: 0)).signal
  end

  def test_the_clock_is_read_after_the_child_has_exited
    reader, writer = IO.pipe
    pid = Process.spawn(RbConfig.ruby, "-e", "$stdout.write([Process.clock_gettime(Process::CLOCK_MONOTONIC)].pack('E'))", out: writer)
    writer.close
    usage, at = Rubyrig::Processes::Reaper.timed_wait(pid)
    assert_equal 0, usage.status
    assert_operator at, :>, reader.read.unpack1("E"), "the child's last reading comes before its exit, and the exit before this one"
  end
end
