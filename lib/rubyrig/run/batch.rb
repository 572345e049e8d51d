# Measures one batch and returns its trial: checks the disk, builds the driver's Context (launch, gem
# set, CPUs, deadline, diagnostics), runs the kind's driver wrapped in DiagnosedDriver, and stamps ids,
# times, the gem set and the host on the Result. A batch that cannot even start fails alone; a cell that
# fails alone (a ruby-bench benchmark) is not run again once its batch failed and none succeeded.
require "time"

module Rubyrig
  module Run
    class Batch
      # prepared: the run's Preparation::Prepared (launches, gem sets, diagnostics gems). gvl_apart: GVL
      # metrics only in the plan's "gvl" diagnostic batches (Runner#gvl_apart), none in measured ones.
      def initialize(experiment:, settings:, store:, progress:, kinds:, prepared:, gvl_apart: false)
        @experiment = experiment
        @gvl_apart = gvl_apart
        @settings = settings
        @store = store
        @progress = progress
        @kinds = kinds
        @prepared = prepared
      end

      # On a full disk it measures nothing, or records nothing of a batch that ran out of room (its
      # files may be cut short): StoreError, and resume measures it.
      def measure(batch)
        workload = @experiment.workloads.find { |w| w.name == batch.cell.workload }
        bundle = @prepared.bundles[[batch.cell.runtime, @kinds.fetch(workload.kind).gemfile(workload, batch.cell.params)]]
        @store.check_space!("batch #{batch.id} was not started")
        artifacts_dir = @store.prepare_artifacts_dir(batch.id)
        @progress.batch_started(batch)
        started_at = Time.now.utc
        clock = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        result = run_driver(batch, workload, bundle, artifacts_dir)
        duration_s = Process.clock_gettime(Process::CLOCK_MONOTONIC) - clock
        @store.check_space!("batch #{batch.id} was not recorded (its files may be cut short)")
        trial = trial(batch, result, bundle, started_at: started_at, duration_s: duration_s)
        note_cell(trial)
        @progress.batch_finished(batch, trial)
        trial
      end

      private

      def run_driver(batch, workload, bundle, artifacts_dir)
        launch = @prepared.launches.fetch(batch.cell.runtime)
        return Kinds::Result.failed(launch.blocker) if launch.blocker
        blocked = cell_blocker(batch, workload)
        return Kinds::Result.failed(blocked) if blocked
        diagnosed = DiagnosedDriver.new(@kinds.fetch(workload.kind).driver, batch: batch, launch: launch,
          diagnostics: @prepared.diagnostics[batch.cell.runtime], experiment: @experiment, gvl_apart: @gvl_apart)
        diagnosed.run(context(batch, workload, launch, bundle, artifacts_dir, diagnosed.setup(artifacts_dir)))
      rescue Error => e # a batch that cannot even start (missing tool, bad port) fails alone; the run goes on
        Kinds::Result.failed(e.message)
      rescue SystemCallError # a driver's own file (a config, a log) could not be written: a full disk stops the run
        @store.check_space!("batch #{batch.id} was not recorded (rubyrig could not write its files)")
        raise
      end

      # Why a cell that fails alone (Contract#cells_fail_alone?) is not run: its gem set did not install,
      # or an earlier batch failed while none succeeded; nil when it runs.
      def cell_blocker(batch, workload)
        kind = @kinds.fetch(workload.kind)
        return nil unless kind.cells_fail_alone?(workload)
        blocked = @prepared.blocked[[batch.cell.runtime, kind.gemfile(workload, batch.cell.params)]]
        return blocked if blocked
        failed = cells[batch.cell.key]
        failed.is_a?(Results::Trial) && "#{failed.reason} (not run again: batch #{failed.batch} of this cell failed and none succeeded)"
      end

      # cell key => its first failed trial while none of its trials succeeded, or :ok; read from the
      # run's trials once (a resume), then kept up to date batch by batch.
      def cells
        @cells ||= @store.trials.each_with_object({}) { |t, cells| note_cell(t, cells) }
      end

      def note_cell(trial, cells = self.cells)
        return if trial.diagnostic
        if trial.ok? then cells[trial.cell_key] = :ok
        elsif !cells.key?(trial.cell_key) then cells[trial.cell_key] = trial
        end
      end

      def context(batch, workload, launch, bundle, artifacts_dir, diagnostics)
        Kinds::Context.new(
          batch: batch, workload: workload, launch: launch, artifacts_dir: artifacts_dir,
          cpus: @experiment.cpus, timeout_s: workload.timeout_s,
          bundle_env: bundle&.env, diagnostics: diagnostics,
          server_cpus: @settings.server_cpus, load_cpus: @settings.load_cpus, inherit_env: @experiment.inherit_env
        )
      end

      def trial(batch, result, bundle, started_at:, duration_s:)
        cell = batch.cell
        Results::Trial.new(
          batch_id: batch.id, cell_key: cell.key, runtime: cell.runtime, workload: cell.workload,
          params: cell.params, batch: batch.number, round: batch.round, diagnostic: batch.diagnostic,
          status: result.status, reason: result.reason,
          started_at: started_at.iso8601(3), finished_at: Time.now.utc.iso8601(3), duration_s: duration_s,
          metrics: result.metrics, samples: result.samples, facts: bundle ? result.facts.merge(bundle_facts(bundle)) : result.facts,
          artifacts: result.artifacts, warnings: result.warnings, host_id: host_id, items: result.items
        )
      end

      # What a trial records of its gem set: the lockfile's digest, and for an app's own lockfile its
      # digest too and whether the runtime used it as it is.
      def bundle_facts(bundle)
        {"lockfile_sha256" => bundle.lockfile_sha256, "source_lockfile_sha256" => bundle.source_lockfile_sha256,
         "lockfile_resolution" => bundle.resolution}.compact
      end

      def host_id = (@host_id ||= Metadata.host_id(@settings))
    end
  end
end
