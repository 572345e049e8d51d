require "test_helper"

# wait4's status and usage decoded, and the usage a child had when it exec'd taken off, so that its
# CPU time and context switches count from exec, like its wall time.
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

  def test_the_usage_before_exec_is_taken_off
    at_exit_of_child = fields(user_s: 1, user_us: 250_000, sys_s: 0, sys_us: 500_000, maxrss_kib: 2048, voluntary: 7, involuntary: 9)
    at_exec = fields(user_s: 0, user_us: 3_000, sys_s: 0, sys_us: 12_000, maxrss_kib: 60_000, voluntary: 2, involuntary: 1)
    usage = Rubyrig::Processes::Reaper.decode(0, at_exit_of_child, before: at_exec)
    assert_in_delta 1.247, usage.cpu_user_s, 1e-9
    assert_in_delta 0.488, usage.cpu_sys_s, 1e-9
    assert_equal [5, 8], [usage.voluntary_ctx_switches, usage.involuntary_ctx_switches]
    assert_equal 2048 * 1024, usage.max_rss_bytes, "a peak is not a sum: nothing is taken off"
  end

  def test_a_real_childs_usage_at_exec_is_what_it_had_spent_so_far
    before = Rubyrig::Processes::Reaper.self_fields
    x = 0
    3_000_000.times { x += 1 }
    after = Rubyrig::Processes::Reaper.self_fields
    assert_operator after[0] + after[1] / 1e6, :>, before[0] + before[1] / 1e6, "user time grows as this process works"
    assert_operator after[16], :>=, before[16]
  end
end
