require "test_helper"

# The runner on its own: a fake driver registry and a catalog that knows one interpreter, so that plan
# order, appends, effective parameters, preflight, resume and the interpreter check are pure logic.
class RunnerTest < Minitest::Test
  include SlowTest

  # A driver kind that records what it was asked to run and reports the batch number as its metric.
  class FakeDriver < Rubyrig::Drivers::Base
    class << self
      attr_accessor :ran, :preflights

      def primary_metric(_workload) = "wall_s"

      def effective_params(_workload, params) = {"depth" => 3}.merge(params)

      def preflight(workload, launch) = (self.preflights ||= []) << [workload.name, launch.runtime.label]
    end

    class << self
      # (runtime label, batch number) -> wall_s; by default every batch of a cell differs a little.
      attr_accessor :values
    end

    def run
      (self.class.ran ||= []) << @context.batch.id
      value = (self.class.values || ->(_runtime, number) { 1.0 + number }).call(@context.cell.runtime, @context.batch.number)
      Result.new(status: Rubyrig::Results::Trial::OK, metrics: {"wall_s" => value}, facts: {}, samples: {}, artifacts: [], warnings: [])
    end
  end

  # Maps every kind to FakeDriver.
  module Registry
    def self.fetch(_kind) = FakeDriver
  end

  # Resolves every base to the Ruby running the tests, described as `description`.
  Catalog = Struct.new(:description) do
    def resolve(base)
      Rubyrig::Runtimes::Interpreter.new(name: base, path: RbConfig.ruby, source: "test", engine: "ruby",
        version: RUBY_VERSION, ruby_version: RUBY_VERSION, description: description, yjit: false,
        jemalloc_linked: false, fingerprint: "f1")
    end
  end

  def setup
    FakeDriver.ran = []
    FakeDriver.preflights = []
    FakeDriver.values = nil
    @progress = StringIO.new
  end

  def experiment(extra = {})
    Rubyrig::Experiment.from_data({"runtimes" => %w[a=system b=system], "batches" => 2, "seed" => 11, "gvl" => false,
                                   "workloads" => [{"command" => ["true"], "params" => {"n" => [1, 2]}}]}.merge(extra))
  end

  def runner(catalog: Catalog.new("ruby test"), **extra)
    settings = Rubyrig::Settings.from_env({"HOME" => tmpdir}, out: StringIO.new, err: StringIO.new)
    settings.cache_dir = tmpdir
    Rubyrig::Runner.new(experiment: experiment(extra.transform_keys(&:to_s)), raw: {"x" => 1}, settings: settings,
      catalog: catalog, progress: Rubyrig::Progress.new(io: @progress, tty: false), drivers: Registry)
  end

  # Same distribution on both runtimes, a 1% wobble: the corrected interval narrows look by look
  # until it fits within ±2%.
  def same_with_noise = ->(runtime, number) { 1.0 + 0.01 * Math.sin(number * ((runtime == "a") ? 1.7 : 2.3)) }

  def test_until_decided_adds_rounds_look_by_look_and_stops_when_decided
    FakeDriver.values = same_with_noise
    store = runner(batches: 3, until: "decided").start(File.join(tmpdir, "run"), command: "compare", command_line: [])
    run = Rubyrig::Results::RunMeta.new(store.meta)
    looks = Rubyrig::Analysis::Sequential.new(min_batches: 3, max_batches: 30).looks
    assert_equal looks.size, run.decision.looks, "every interval of the run is corrected for all the looks"
    assert_operator run.plan.rounds, :>, 3, "the first look was undecided"
    assert_includes looks, run.plan.rounds, "it stops at a look"
    assert_equal run.plan.batches.map(&:id), store.trials.map(&:batch_id), "every planned batch ran, in order"
    report = Rubyrig::Analysis.new.analyze(meta: store.meta, trials: store.trials)
    primary = report.comparisons.select { |c| c.metric == "wall_s" }
    assert(primary.all? { |c| c.verdict == "equivalent" }, primary.map(&:verdict).inspect)
    assert_match(/^Look at 3 batches per cell: b \| true \| n=1 inconclusive/, @progress.string)
  end

  def test_until_decided_stops_at_max_batches
    FakeDriver.values = ->(runtime, number) { 1.0 + 0.3 * Math.sin(number * ((runtime == "a") ? 1.7 : 2.3)) }
    store = runner(batches: 3, until: "decided", max_batches: 8).start(File.join(tmpdir, "run"), command: "compare", command_line: [])
    assert_equal 8, Rubyrig::Results::RunMeta.new(store.meta).plan.rounds
    assert_equal 2 * 2 * 8, store.trials.size
  end

  def test_every_batch_runs_in_plan_order_and_is_appended
    dir = File.join(tmpdir, "run")
    store = runner.start(dir, command: "compare", command_line: %w[rubyrig compare])
    plan = Rubyrig::Results::RunMeta.new(store.meta).plan
    assert_equal plan.batches.map(&:id), FakeDriver.ran
    assert_equal plan.batches.map(&:id), store.trials.map(&:batch_id)
    assert_equal 8, store.trials.size
    assert_equal [["true", "a"], ["true", "b"]], FakeDriver.preflights
  end

  def test_run_json_records_effective_params_command_and_cpu_split
    store = runner.start(File.join(tmpdir, "run"), command: "compare", command_line: %w[rubyrig compare])
    meta = store.meta
    assert_equal "compare", meta["command"]
    assert_equal({"server_cpus" => nil, "load_cpus" => nil}, meta["cpu_settings"])
    assert_equal [{"depth" => 3, "n" => 1}, {"depth" => 3, "n" => 2}], meta.dig("plan", "cells").map { |c| c["effective_params"] }.uniq
    assert_equal Rubyrig::RESULTS_FORMAT_VERSION, meta["format_version"]
  end

  def test_resume_runs_only_what_is_missing
    dir = File.join(tmpdir, "run")
    store = runner.start(dir, command: "compare", command_line: %w[rubyrig compare])
    kept = File.readlines(store.path("trials.jsonl")).first(3)
    File.write(store.path("trials.jsonl"), kept.join)
    FakeDriver.ran = []
    runner.resume(Rubyrig::Results::Store.open(dir))
    assert_equal 5, FakeDriver.ran.size
    assert_equal 8, Rubyrig::Results::Store.open(dir).trials.map(&:batch_id).uniq.size
  end

  def test_resume_refuses_when_a_runtime_is_another_interpreter_now
    dir = File.join(tmpdir, "run")
    runner.start(dir, command: "compare", command_line: %w[rubyrig compare])
    before = Rubyrig::Processes::TextFile.read(File.join(dir, "run.json"))
    error = assert_raises(Rubyrig::StoreError) { runner(catalog: Catalog.new("ruby other")).resume(Rubyrig::Results::Store.open(dir)) }
    assert_match(/runtime 'a' was ruby test at .* when the run started, but now resolves to ruby other at/, error.message)
    assert_equal before, Rubyrig::Processes::TextFile.read(File.join(dir, "run.json")), "nothing written"
  end

  def test_resume_takes_the_lock_before_writing_anything
    dir = File.join(tmpdir, "run")
    runner.start(dir, command: "compare", command_line: %w[rubyrig compare])
    before = Rubyrig::Processes::TextFile.read(File.join(dir, "run.json"))
    File.open(File.join(dir, ".lock"), File::RDWR | File::CREAT) do |lock|
      lock.flock(File::LOCK_EX)
      pid = fork do
        runner.resume(Rubyrig::Results::Store.open(dir))
        exit!(0)
      rescue Rubyrig::StoreError
        exit!(3)
      end
      Process.wait(pid)
      assert_equal 3, $?.exitstatus, "the resume refused: another process holds the run"
    end
    assert_equal before, Rubyrig::Processes::TextFile.read(File.join(dir, "run.json"))
  end
end
