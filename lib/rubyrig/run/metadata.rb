# What a new run writes into run.json before its first batch: the experiment as given (with its seed
# and digest), the plan with each cell's effective parameters, how comparisons are decided, each
# runtime's launch, the gem sets, each workload's kind, primary metrics, effective options (what a
# resume runs again) and code revision, the definitions of every metric (what its reports read), the host and the shard.
require "time"

module Rubyrig
  module Run
    class Metadata
      # The host this process measures on: --host-id or RUBYRIG_HOST_ID (a container sets it to its node's
      # name), else the hostname.
      def self.host_id(settings) = settings.host_id || Processes::Host.new.facts["hostname"]

      # prepared: the run's Preparation::Prepared.
      def initialize(experiment:, raw:, settings:, kinds:, prepared:)
        @experiment = experiment
        @raw = raw
        @settings = settings
        @kinds = kinds
        @prepared = prepared
      end

      def initial(plan, command:, command_line:, shard:)
        experiment = @raw.merge("seed" => @experiment.seed)
        run = Results::RunMeta.build(
          format_version: RESULTS_FORMAT_VERSION, rubyrig_version: VERSION, name: @experiment.name,
          created_at: Time.now.utc.iso8601(6), command: command, command_line: command_line,
          cpu_settings: {"server_cpus" => @settings.server_cpus, "load_cpus" => @settings.load_cpus},
          experiment: experiment, experiment_digest: digest(experiment),
          experiment_base_dir: @experiment.workloads.first&.base_dir,
          decision: decision, baseline: @experiment.baseline, plan: plan.to_h,
          runtimes: @prepared.launches.transform_values { |l| launch(l) },
          bundles: @prepared.bundles.map { |(label, gemfile), b| {"runtime" => label, "gemfile" => gemfile}.merge(b.to_h) },
          workloads: @experiment.workloads.to_h { |w| [w.name, workload(w)] }, metrics: Metrics.current.to_record,
          diagnostics: {"gvl" => @experiment.gvl, "gvl_apart" => plan.batches.select { |b| b.diagnostic == "gvl" }.map { |b| b.cell.runtime }.uniq,
                        "trace" => @experiment.trace, "profile" => @experiment.profile},
          host: Processes::Host.new.facts.merge("host_id" => self.class.host_id(@settings)),
          tools: {"host_ruby" => RUBY_DESCRIPTION}
        )
        shard ? run.with(shard: shard_meta(plan, shard)) : run
      end

      private

      def digest(experiment)
        Experiment::ContentDigest.of(experiment, @experiment.workloads, paths: ->(w) { @kinds.fetch(w.kind).digest_paths(w) })
      end

      def shard_meta(plan, shard)
        {"index" => shard.index, "count" => shard.count, "seed" => plan.seed, "run_seed" => @experiment.seed,
         "batches" => shard.batches(@experiment.batches), "total_batches" => @experiment.batches}
      end

      # How comparisons are decided, with the number of looks a sequential run may take (the analysis
      # corrects every interval of the run for all of them, however early the run stopped).
      def decision
        decision = @experiment.decision
        looks = if decision.until_decided
          Analysis::Sequential.new(min_batches: @experiment.batches, max_batches: decision.max_batches).k
        else
          1
        end
        decision.to_h.merge("looks" => looks)
      end

      def workload(workload)
        kind = @kinds.fetch(workload.kind)
        extra = kind.run_meta(workload, server_cpus: @settings.server_cpus, load_cpus: @settings.load_cpus,
          cpus: @experiment.cpus)
        {"kind" => workload.kind, "primary_metric" => kind.primary_metrics.first,
         "primary_metrics" => kind.primary_metrics, "sweeps" => workload.sweeps,
         "revision" => Results::WorkloadRevision.of(workload.target, workload.base_dir)}.merge(extra, WorkloadOptions.record(workload))
      end

      def launch(launch)
        diag = @prepared.diagnostics[launch.runtime.label]
        interpreter = launch.interpreter.to_h.transform_keys(&:to_s)
        interpreter["build_digest"] = Results::BuildDigest.of(interpreter["path"], interpreter["ruby_version"])
        Results::RunMeta::RuntimeEntry.new(spec: launch.runtime.spec, interpreter: interpreter,
          ruby_flags: launch.ruby_flags, env: launch.env.compact, expect: launch.expect, warnings: launch.warnings,
          diagnostics_gems: diag ? diag.installed_gems : []).to_record
      end
    end
  end
end
