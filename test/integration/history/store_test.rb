# The history store with real runs and real processes: runs from several hosts and runtimes read back
# as series, a writer killed with SIGKILL in the middle of its file, writers adding at the same moment,
# and a damaged store refused by the CLI with one line.
require "test_helper"
require "rbconfig"
require "open3"
require "support/history_runs"

class HistoryStoreIntegrationTest < Minitest::Test
  include RubyrigTest
  include HistoryRuns

  EXPERIMENT = "runtimes: [system, system+yjit]\nworkloads: [{builtin: nbody, params: {steps: 100}, iterations: 2, warmup: 1}]\n" \
    "batches: 4\nseed: 5\n"

  def setup
    @root = tmpdir
    @history = File.join(@root, "history")
    @experiment = File.join(@root, "exp.yml")
    File.write(@experiment, EXPERIMENT)
  end

  def test_runs_from_several_hosts_and_runtimes_read_back_as_series
    other = write_history_run(File.join(@root, "gamma"), created_at: "2026-11-01T10:00:00Z", host: "gamma",
      values: {"system" => [10.0, 11.0, 12.0, 13.0]})
    assert_equal [0, "#{other}: added to #{@history} (2 series points)\n"], run_cli("history", "add", @history, other).first(2)
    run = File.join(@root, "alpha")
    status, out, err = run_cli("run", @experiment, "--host-id", "alpha", "--results", run, "--history", @history)
    assert_equal 0, status, err
    assert_match(/^History: #{Regexp.escape(@history)} \(\d+ series points added\)$/, out)
    shards = %w[1 2].map do |k|
      dir = File.join(@root, "shard-#{k}")
      assert_equal 0, run_cli("run", @experiment, "--shard", "#{k}/2", "--host-id", "host-#{k}", "--results", dir).first
      dir
    end
    merged = File.join(@root, "merged")
    assert_equal 0, run_cli("merge", *shards, "--results", merged).first
    assert_equal 0, run_cli("history", "add", @history, merged).first

    series = Rubyrig::History::Store.new(@history).series
    system = series.find { |s| s.runtime == "system" && s.metric == "iterations_per_s" }
    assert_equal %w[gamma alpha host-1 host-2], system.points.map(&:host_id), "by start time; the merged run is a point per host"
    assert_equal [4, 4, 2, 2], system.points.map { |p| p.values.size }
    meta = Rubyrig::Results::Store.open(run).run
    real = system.points[1]
    recorded = meta.interpreter("system")
    assert_match(/\A\h{16}\z/, recorded["build_digest"])
    assert_equal ["#{recorded["fingerprint"]}:#{recorded["build_digest"]}", recorded["version"], meta.host["fingerprint"]],
      [real.build, real.version, real.host]
    refute_equal system.points.first.host, real.host
    assert_equal git_head, real.revision, "the built-in's code is this checkout's"
    yjit = series.find { |s| s.runtime == "system+yjit" && s.metric == "iterations_per_s" }
    assert_equal 3, yjit.points.size
    assert(yjit.points.all? { |p| p.interpreter.include?("+YJIT") }, "as the probe saw it")
    refute(system.points.any? { |p| p.interpreter.include?("+YJIT") })
    assert_equal ["builtin:nbody", {"steps" => 100}, "1/s", true], [yjit.workload, yjit.params, yjit.unit, yjit.higher_is_better]
  end

  def test_a_resumed_run_is_added_with_history_given_again
    run = File.join(@root, "run")
    assert_equal 0, run_cli("run", @experiment, "--results", run).first
    refute File.exist?(@history)
    status, out, err = run_cli("run", "--resume", run, "--history", @history)
    assert_equal 0, status, err
    assert_match(/^History: #{Regexp.escape(@history)} \(\d+ series points added\)$/, out)
    status, out, = run_cli("run", "--resume", run, "--history", @history)
    assert_equal [0, true], [status, out.include?("History: #{@history} (the run was already in it)")]
    assert_equal 1, Rubyrig::History::Store.new(@history).series.first.points.size
  end

  def test_a_writer_killed_in_the_middle_of_its_file_leaves_every_run_readable_and_its_run_can_be_added_again
    kept = write_history_run(File.join(@root, "kept"), created_at: "2026-11-01T10:00:00Z", values: {"system" => [1.0, 2.0]})
    victim = write_history_run(File.join(@root, "victim"), created_at: "2026-11-02T10:00:00Z", values: {"system" => [3.0, 4.0]})
    store = Rubyrig::History::Store.new(@history)
    store.add(kept)
    ready = File.join(@root, "half-written")
    # The child writes half of the run's file, says so, and waits to be killed.
    pid = spawn_ruby(<<~RUBY, victim, ready)
      Rubyrig::History::RunFile.singleton_class.prepend(Module.new do
        def write_all(file, text)
          file.syswrite(text.byteslice(0, text.bytesize / 2))
          file.fsync
          File.write(ARGV[1], "")
          sleep
        end
      end)
      Rubyrig::History::Store.new(#{@history.dump}).add(ARGV[0])
    RUBY
    wait_for(timeout_s: 60, message: "the child to write half its file") { File.exist?(ready) }
    Process.kill(:KILL, pid)
    Process.wait(pid)
    temp = Dir.glob(File.join(@history, "runs", ".tmp-*"))
    assert_equal 1, temp.size, "the half-written file is a temporary file"
    assert_equal [[1.0, 2.0]], store.series.find { |s| s.metric == "iterations_per_s" }.points.map(&:values), "readers never see it"
    File.utime(Time.now - 600, Time.now - 600, temp.first)
    assert_equal 2, store.add(victim)
    assert_empty Dir.glob(File.join(@history, "runs", ".tmp-*")), "the next writer removed it"
    assert_equal [[1.0, 2.0], [3.0, 4.0]], store.series.find { |s| s.metric == "iterations_per_s" }.points.map(&:values)
  end

  def test_writers_adding_at_the_same_moment_each_record_their_run_and_the_same_run_once
    runs = (1..3).map { |i| write_history_run(File.join(@root, "r#{i}"), created_at: "2026-11-0#{i}T10:00:00Z", values: {"system" => [i.to_f, i + 0.5]}) }
    go = File.join(@root, "go")
    # Two writers per run, six processes, released together.
    children = (runs + runs).each_with_index.map do |run, i|
      out = File.join(@root, "added-#{i}")
      [spawn_ruby(<<~RUBY, run, go, out), out]
        sleep 0.01 until File.exist?(ARGV[1])
        File.write(ARGV[2], Rubyrig::History::Store.new(#{@history.dump}).add(ARGV[0]).to_s)
      RUBY
    end
    File.write(go, "")
    statuses = children.map { |pid, _| Process.wait2(pid).last }
    assert statuses.all?(&:success?), "every writer finished: #{statuses.map(&:inspect)}"
    added = children.map { |_, out| File.read(out).to_i }
    assert_equal [2, 2, 2], added.each_slice(3).to_a.transpose.map(&:sum), "each run's points added once, by one of its two writers"
    assert_equal 3, Dir.children(File.join(@history, "runs")).size, "three run files, no temporary file left"
    assert_equal [[1.0, 1.5], [2.0, 2.5], [3.0, 3.5]], Rubyrig::History::Store.new(@history).series.find { |s| s.metric == "iterations_per_s" }.points.map(&:values)
  end

  def test_the_cli_refuses_a_damaged_store_with_one_line_and_keeps_every_other_run
    runs = (1..2).map { |i| write_history_run(File.join(@root, "r#{i}"), created_at: "2026-11-0#{i}T10:00:00Z", values: {"system" => [i.to_f]}) }
    assert_equal 0, run_cli("history", "add", @history, *runs).first
    damaged, intact = Dir[File.join(@history, "runs", "*.json")].sort
    before = File.read(intact)
    File.write(damaged, File.read(damaged)[0, 200])
    out, err, status = Open3.capture3(RbConfig.ruby, EXE, "history", @history)
    assert_equal [1, ""], [status.exitstatus, out]
    assert_equal 1, err.lines.size, err
    assert_match(/\Arubyrig: error: #{Regexp.escape(damaged)} is damaged \(not valid JSON.*move the file out of the history and add its run again/, err)
    assert_equal before, File.read(intact)
    _, err, status = Open3.capture3(RbConfig.ruby, EXE, "history", "add", @history, write_history_run(File.join(@root, "r3"), created_at: "2026-11-03T10:00:00Z", values: {"system" => [3.0]}))
    assert_equal 0, status.exitstatus, "adding writes its own file and reads no other: #{err}"
  end

  private

  def spawn_ruby(code, *args)
    Process.spawn(RbConfig.ruby, "-I", File.join(ROOT, "lib"), "-e", "require 'rubyrig'\n#{code}", *args, pgroup: true)
  end

  def git_head
    out, status = Open3.capture2("git", "-C", ROOT, "rev-parse", "HEAD")
    status.success? ? out.strip : nil
  end
end
