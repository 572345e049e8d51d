# Executes a plan, the top of three layers (sidekiq's Launcher -> Manager -> Processor):
# - Runner (this file): starts a new run or resumes one; prepares once (Preparation), writes run.json
#   (Metadata) and hands the plan to the Schedule;
# - Schedule: runs the remaining batches in plan order, measured ones first, taking looks (Looks)
#   when the run goes until decided, and records when the run finished or was interrupted;
# - Batch: measures one batch through its driver (wrapped in DiagnosedDriver) and returns its trial.
require "time"

module Rubyrig
  module Run
    class Runner
      attr_reader :store

      # raw: the experiment data as given (file or CLI), stored so that a resume can re-validate it.
      # kinds: the registry that finds a workload's kind (Kinds, or a test's own).
      def initialize(experiment:, raw:, settings:, catalog:, progress:, kinds: Kinds)
        @experiment = experiment
        @raw = raw
        @settings = settings
        @catalog = catalog
        @progress = progress
        @kinds = kinds
      end

      # Starts a new run in dir and executes it, each workload with its effective options (recorded in
      # run.json). command: the subcommand that started it (compare, run, demo); shard: the Shard this
      # run is, or nil.
      def start(dir, command:, command_line:, shard: nil)
        @experiment = WorkloadOptions.effective(@experiment, @kinds)
        prepared = preparation.prepare
        effective = ->(workload, params) { @kinds.fetch(workload.kind).effective_params(params) }
        plan = Experiment::Plan.build(@experiment, effective: effective, shard: shard, gvl_apart: gvl_apart(prepared))
        metadata = Metadata.new(experiment: @experiment, raw: @raw, settings: @settings, kinds: @kinds, prepared: prepared)
        @store = Results::Store.create(dir, metadata.initial(plan, command: command, command_line: command_line, shard: shard))
        execute(plan, prepared)
      ensure
        @store&.unlock
      end

      # Continues the run in an existing store with the workload settings it recorded: locks it before
      # anything is written, and refuses when a runtime no longer resolves to the interpreter the run
      # started with.
      def resume(store)
        @store = store
        store.lock!
        run = store.run
        @experiment, warning = WorkloadOptions.recorded(@experiment, run, @kinds)
        @progress.note("Warning: #{warning}") if warning
        prepared = preparation.prepare
        check_same_interpreters!(run, prepared)
        store.read_trials.skipped.each { |line| @progress.note("Warning: #{line}") }
        store.update_meta { |m| m.with(resumed_at: m.resumed_at + [Time.now.utc.iso8601]) }
        execute(run.plan, prepared)
      ensure
        store.unlock
      end

      private

      def preparation
        Preparation.new(experiment: @experiment, settings: @settings, catalog: @catalog, progress: @progress, kinds: @kinds)
      end

      def execute(plan, prepared)
        preparation.prepare_workloads(@store, prepared)
        batch = Batch.new(experiment: @experiment, settings: @settings, store: @store, progress: @progress,
          kinds: @kinds, prepared: prepared, gvl_apart: plan.batches.any? { |b| b.diagnostic == "gvl" })
        looks = Looks.new(experiment: @experiment, store: @store, progress: @progress)
        Schedule.new(store: @store, progress: @progress, batch: batch, looks: looks).run(plan)
      end

      # GVL hooks cost the threads of a measured process (bench/gvl-cost), and they run on CRuby 3.2+
      # only: when some runtimes cannot carry them, those that can take their GVL metrics from a
      # diagnostic batch apart (their label here), so that no measured batch carries them on one side only.
      def gvl_apart(prepared)
        return [] unless @experiment.gvl
        able, unable = @experiment.runtimes.map(&:label).partition { |label| prepared.diagnostics[label]&.gvl? }
        unable.empty? ? [] : able
      end

      # The same label must mean the same interpreter for every batch of a run.
      def check_same_interpreters!(run, prepared)
        prepared.launches.each do |label, launch|
          before = run.interpreter(label)
          now = launch.interpreter.to_h.transform_keys(&:to_s)
          next if Results::RunMeta.same_interpreter?(before, now, path: true)
          raise StoreError, "runtime '#{label}' was #{before["description"]} at #{before["path"]} when the run started, " \
            "but now resolves to #{now["description"]} at #{now["path"]}; put the original interpreter back, or start a new run"
        end
      end
    end
  end
end
