require "test_helper"

# wait4's status and usage decoded.
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
end
