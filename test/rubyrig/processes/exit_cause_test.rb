require "test_helper"

# How a process ended, in words: Ruby's crash report behind SIGABRT (from a real crash), and a SIGKILL
# while the OOM killer ran, told from a recorded /proc/vmstat and kernel log.
class ExitCauseTest < Minitest::Test
  def exit_by(signal) = Rubyrig::Processes::Child::Exit.new(signal: signal, wall_s: 1.0)

  def vmstat(kills) = write(tmpdir, "vmstat", "pgfault 10\noom_kill #{kills}\nthp_fault_alloc 0\n")

  # A stand-in for /proc/self/ns/pid: the first PID namespace, or one of a container or chroot.
  def pid_namespace(first:)
    File.join(tmpdir, "pid").tap { |link| File.symlink(first ? "pid:[4026531836]" : "pid:[4026532177]", link) }
  end

  KMSG = <<~LOG
    6,1201,3576731540,-;oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/t,task_memcg=/t,task=ruby,pid=4242,uid=0
    3,1202,3576731557,-;Memory cgroup out of memory: Killed process 4242 (ruby) total-vm:280356kB, anon-rss:212736kB
  LOG

  def test_an_abort_without_a_crash_report_is_only_the_signal
    err = write(tmpdir, "stderr.log", "something else\n")
    assert_equal "killed by SIGABRT", Rubyrig::Processes::ExitCause.describe(exit_by("ABRT"), pid: 1, stderr_path: err)
  end

  def test_a_sigkill_the_kernel_log_pins_on_the_oom_killer
    text = Rubyrig::Processes::ExitCause.describe(exit_by("KILL"), pid: 4242, oom_kills_before: 0, vmstat: vmstat(1),
      kmsg: write(tmpdir, "kmsg", KMSG), pid_namespace: pid_namespace(first: true))
    assert_equal "killed by SIGKILL from the kernel's OOM killer (out of memory; the kernel log names pid 4242)", text
  end

  def test_a_sigkill_while_the_oom_killer_ran_elsewhere_is_only_the_signal
    text = Rubyrig::Processes::ExitCause.describe(exit_by("KILL"), pid: 7, oom_kills_before: 0, vmstat: vmstat(1),
      kmsg: write(tmpdir, "kmsg", KMSG), pid_namespace: pid_namespace(first: true))
    assert_equal "killed by SIGKILL", text
  end

  # In a chroot or container with its own PID namespace the log's pid 4242 may be any process here.
  def test_in_its_own_pid_namespace_a_sigkill_during_oom_kills_only_looks_like_the_oom_killer
    text = Rubyrig::Processes::ExitCause.describe(exit_by("KILL"), pid: 4242, oom_kills_before: 0, vmstat: vmstat(1),
      kmsg: write(tmpdir, "kmsg", KMSG), pid_namespace: pid_namespace(first: false))
    assert_equal "killed by SIGKILL and looks like the kernel's OOM killer (out of memory): it killed 1 process during the " \
      "batch (oom_kill in /proc/vmstat); the kernel log names pids as the machine's first PID namespace sees them, not as " \
      "this one does", text
  end

  def test_without_the_kernel_log_a_sigkill_during_oom_kills_looks_like_the_oom_killer
    text = Rubyrig::Processes::ExitCause.describe(exit_by("KILL"), pid: 4242, oom_kills_before: 3, vmstat: vmstat(5),
      kmsg: File.join(tmpdir, "unreadable"), pid_namespace: pid_namespace(first: true))
    assert_equal "killed by SIGKILL and looks like the kernel's OOM killer (out of memory): it killed 2 processes during the " \
      "batch (oom_kill in /proc/vmstat); the kernel log, not readable here, would say which", text
  end

  def test_a_sigkill_without_oom_kills_is_only_the_signal
    assert_equal "killed by SIGKILL", Rubyrig::Processes::ExitCause.describe(exit_by("KILL"), pid: 1, oom_kills_before: 5, vmstat: vmstat(5))
    assert_equal "exited with status 3", Rubyrig::Processes::ExitCause.describe(Rubyrig::Processes::Child::Exit.new(status: 3), pid: 1)
  end

  def test_the_real_kernel_log_and_vmstat_read_here
    assert_kind_of Integer, Rubyrig::Processes::ExitCause.oom_kills
    victims = Rubyrig::Processes::ExitCause.oom_victims("/dev/kmsg")
    assert_kind_of(Process.euid.zero? ? Array : NilClass, victims)
    assert_includes [true, false], Rubyrig::Processes::ExitCause.initial_pid_namespace?
    assert Rubyrig::Processes::ExitCause.initial_pid_namespace?(File.join(tmpdir, "absent")), "no /proc says nothing otherwise"
  end
end
