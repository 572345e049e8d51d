# The measured Ruby dies mid-batch: a segfault (kill -SEGV from outside) and a real OOM kill (the
# script moves itself into a memory cgroup with a small limit and allocates). Each fails only its batch,
# with the signal named, and the run goes on to measure the others.
require "test_helper"

class FaultsCrashTest < Minitest::Test
  include SlowTest

  # The first batch to start prints its pid and waits to be killed (or, given a memory cgroup, moves
  # into it and allocates until the kernel kills it); every later batch ends at once.
  SCRIPT = <<~RUBY
    flag = File.join(__dir__, "first-batch-started")
    unless File.exist?(flag)
      File.write(flag, Process.pid.to_s)
      if ARGV[0]
        File.write(File.join(ARGV[0], "cgroup.procs"), Process.pid.to_s)
        hog = []
        loop { hog << ("x" * 10_000_000) }
      end
      $stdout.sync = true
      puts Process.pid
      sleep 120
    end
  RUBY

  def run_script(*args)
    dir = tmpdir
    script = write(dir, "crashes.rb", SCRIPT)
    results = File.join(dir, "run")
    yield(dir, results) if block_given?
    status, out, err = run_cli("compare", "-r", "system", "--batches", "3", "--results", results, "--", script, *args)
    [status, out + err, trial_lines(results)]
  end

  def test_a_segfault_of_the_measured_ruby_fails_its_batch_with_sigsegv_named_and_the_run_goes_on
    killed = nil
    killer = nil
    status, output, trials = run_script do |_dir, results|
      killer = Thread.new do
        until killed
          out = Dir.glob(File.join(results, "artifacts", "*", "stdout.log")).find { |f| File.size?(f) }
          if out
            killed = [File.basename(File.dirname(out)), Rubyrig::Processes::TextFile.read(out).to_i]
            Process.kill("SEGV", killed[1])
          end
          sleep 0.01
        end
      end
    end
    killer.join(5)
    refute_nil killed, "the killer never saw the first batch running"
    assert_equal 1, status, output
    failed, ok = trials.partition { |t| t["status"] == "failed" }
    assert_equal [killed[0]], failed.map { |t| t["batch_id"] }
    assert_match(/\Acrashed with SIGSEGV \(Ruby's crash report: \S+crashes\.rb:\d+: \[BUG\] Segmentation fault at 0x\h+\), then killed by SIGABRT by the report's abort; see stderr\.log\z/, failed.first["reason"])
    assert_equal "ABRT", failed.first.dig("facts", "exit_signal")
    assert_equal 2, ok.size, "the run goes on"
  ensure
    killer&.kill
  end

  def test_an_oom_kill_of_the_measured_ruby_fails_its_batch_with_sigkill_and_the_oom_killer_named
    with_memory_cgroup(150 * 1024 * 1024) do |cgroup|
      status, output, trials = run_script(cgroup)
      assert_equal 1, status, output
      failed, ok = trials.partition { |t| t["status"] == "failed" }
      assert_equal 1, failed.size, output
      reason = failed.first["reason"]
      if Process.euid.zero? && Rubyrig::Processes::ExitCause.initial_pid_namespace?
        assert_match(/\Akilled by SIGKILL from the kernel's OOM killer \(out of memory; the kernel log names pid \d+\)/, reason)
      else
        assert_match(/\Akilled by SIGKILL and looks like the kernel's OOM killer \(out of memory\): it killed \d+ process/, reason)
      end
      assert_equal "KILL", failed.first.dig("facts", "exit_signal")
      assert_equal 2, ok.size, "the run goes on"
      assert_match(/oom_kill [1-9]/, Rubyrig::Processes::TextFile.read(File.join(cgroup, memory_events_file(cgroup))))
    end
  end

  private

  # A memory cgroup with a limit, under this process's own (cgroup v1's memory hierarchy, or v2 where
  # the memory controller is enabled for children); removed afterwards.
  def with_memory_cgroup(limit_bytes)
    needs_root("creating a memory cgroup")
    base, limit_file = memory_cgroup_base
    needs(base, "no memory cgroup controller available for a child cgroup here")
    dir = File.join(base, "rubyrig-oom-test-#{Process.pid}")
    Dir.mkdir(dir)
    File.write(File.join(dir, limit_file), limit_bytes.to_s)
    yield dir
  ensure
    remove_cgroup(dir) if dir
  end

  def remove_cgroup(dir)
    wait_for(timeout_s: 30) do
      Dir.rmdir(dir)
      true
    rescue Errno::EBUSY # its last process is still exiting
      false
    rescue Errno::ENOENT # never made, or already gone
      true
    end
  end

  def memory_cgroup_base
    mounts = File.readlines("/proc/self/mountinfo").map(&:split)
    own = File.readlines("/proc/self/cgroup").map(&:strip)
    v1 = mounts.find { |f| f[f.index("-") + 1] == "cgroup" && f.last.split(",").include?("memory") }
    v1_path = own.find { |l| l.split(":")[1].to_s.split(",").include?("memory") }&.split(":", 3)&.last
    return [File.join(v1[4], v1_path), "memory.limit_in_bytes"] if v1 && v1_path
    base = Rubyrig::Processes::Containment.cgroup_base
    return nil unless base && Rubyrig::Processes::TextFile.read(File.join(base, "cgroup.subtree_control")).split.include?("memory")
    [base, "memory.max"]
  end

  def memory_events_file(cgroup) = File.exist?(File.join(cgroup, "memory.events")) ? "memory.events" : "memory.oom_control"
end
