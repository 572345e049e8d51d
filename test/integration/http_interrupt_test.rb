# Ctrl-C during a measured wrk run: a real `exe/rubyrig` process gets SIGINT and must leave no Puma or
# wrk process and no process group behind, exit 130, and keep the finished batches in trials.jsonl;
# resuming then measures the cut batch afresh.
require "test_helper"
require_relative "faults_support"

class HttpInterruptTest < Minitest::Test
  include SlowTest

  def descendants(pid)
    children = Dir.glob("/proc/#{pid}/task/*/children").flat_map { |f| Rubyrig::Processes::TextFile.read(f).split.map(&:to_i) }
    children + children.flat_map { |c| descendants(c) }
  rescue Errno::ENOENT # the process exited while being listed
    []
  end

  def command(pid)
    File.binread("/proc/#{pid}/cmdline").split("\0")
  rescue Errno::ENOENT # gone
    []
  end

  def alive?(pid)
    File.binread("/proc/#{pid}/stat").split(") ").last.split.first != "Z"
  rescue Errno::ENOENT # reaped
    false
  end

  def group_alive?(pgid)
    Process.kill(0, -pgid)
    true
  rescue Errno::ESRCH # no process left in the group
    false
  end

  def wait_for(timeout_s, what)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout_s
    until (value = yield)
      flunk "timed out waiting for #{what}" if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      sleep 0.05
    end
    value
  end

  def test_ctrl_c_during_the_measured_run_leaves_no_server_or_load_generator
    dir = tmpdir
    exp = write(dir, "interrupt.yml", <<~YAML)
      runtimes: [system]
      workloads:
        - builtin: rack-hello
          params: {processes: 2}
          duration_s: 4
          warmup_s: 1
      batches: 3
      seed: 1
    YAML
    results = File.join(dir, "run")
    trials = File.join(results, "trials.jsonl")
    env = ENV.to_h.merge("RUBYRIG_CACHE_DIR" => cache_dir)
    pid = Process.spawn(env, RbConfig.ruby, RubyrigTest::EXE, "run", exp, "--results", results,
      out: File.join(dir, "out.log"), err: File.join(dir, "err.log"))
    begin
      wait_for(90, "the first batch") { File.exist?(trials) && Rubyrig::Processes::TextFile.read(trials).lines.size >= 1 }
      # The measured run of the next batch: wrk with a 4 s duration (the warmup runs for 1 s).
      wrk = wait_for(30, "the measured wrk run") do
        descendants(pid).find { |p| command(p).include?("4s") && command(p).any? { |a| a.end_with?("wrk") } }
      end
      tree = descendants(pid)
      puma = tree.select { |p| command(p).first.to_s.start_with?("puma") }
      assert_operator puma.size, :>=, 3, "master and two workers: #{tree.map { |p| command(p).first }.inspect}"
      groups = tree.map { |p| Process.getpgid(p) }.uniq
      assert_operator groups.size, :>=, 2, "Puma and wrk lead their own process groups"
      assert_includes tree, wrk

      Process.kill("INT", pid)
      _, status = Process.wait2(pid)
      pid = nil
      assert_equal 130, status.exitstatus, Rubyrig::Processes::TextFile.read(File.join(dir, "err.log"))
      # A killed process still has to be scheduled to exit: waited for (as long as the fault tests
      # give the kernel), not checked at the instant rubyrig exits.
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + FaultsSupport::GONE_S
      gone = -> { tree.none? { |p| alive?(p) } && groups.none? { |g| group_alive?(g) } }
      sleep 0.05 until gone.call || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      survivors = tree.select { |p| alive?(p) }
      assert_empty survivors, "still running: #{survivors.map { |p| command(p).join(" ") }.inspect}"
      assert_empty groups.select { |g| group_alive?(g) }
    ensure
      if pid
        Process.kill("KILL", pid)
        Process.wait(pid)
      end
    end

    lines = Rubyrig::Processes::TextFile.read(trials).lines
    assert_operator lines.size, :>=, 1
    assert_operator lines.size, :<, 3
    lines.each { |line| assert_equal "ok", JSON.parse(line)["status"] }
    assert Rubyrig::Results::Store.open(results).meta["interrupted_at"]
    done = lines.map { |line| JSON.parse(line)["batch_id"] }
    cut = Dir.glob(File.join(results, "artifacts", "*", "wrk.log")).map { |f| File.basename(File.dirname(f)) } - done
    assert_equal 1, cut.size
    # rubyrig itself stopped Puma with TERM (not only the kernel's death signal after rubyrig exited).
    assert_match(/Gracefully/, Rubyrig::Processes::TextFile.read(File.join(results, "artifacts", cut.first, "server-stdout.log")))
    cut_probes = Dir.glob(File.join(results, "artifacts", cut.first, "probe", "probe-*.json")).count { |f| !f.end_with?(".boot.json") }
    assert_equal 3, cut_probes, "master and two workers wrote their facts on TERM"

    status, out, err = run_cli("run", "--resume", results)
    assert_equal 0, status, "#{out}\n#{err}"
    resumed = Rubyrig::Results::Store.open(results).trials
    assert_equal 3, resumed.size
    assert_equal [3], resumed.map { |t| t.facts["ruby_processes"] }.uniq, "the cut attempt's probe files must not count twice"
    assert_match(/interrupted.*trials\.jsonl.*--resume/, Rubyrig::Processes::TextFile.read(File.join(dir, "err.log")))
  end
end
