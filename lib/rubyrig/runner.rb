# Executes a plan: resolves every runtime before the first batch, records the run's metadata, runs the
# remaining batches in plan order through their drivers, and appends each trial the moment it ends.
require "time"

module Rubyrig
  class Runner
    attr_reader :store

    # raw: the experiment data as given (file or CLI), stored so that a resume can re-validate it.
    def initialize(experiment:, raw:, settings:, catalog:, progress:)
      @experiment = experiment
      @raw = raw
      @settings = settings
      @catalog = catalog
      @progress = progress
    end

    # Starts a new run in dir and executes it.
    def start(dir, command_line:)
      launches = resolve_launches
      bundles = prepare_bundles(launches)
      plan = Plan.build(@experiment)
      @store = Store.create(dir, initial_meta(plan, launches, bundles, command_line))
      execute(plan, launches, bundles)
    end

    # Continues the run in an existing store.
    def resume(store)
      @store = store
      launches = resolve_launches
      bundles = prepare_bundles(launches)
      meta = store.meta
      plan = Plan.from_h(meta.fetch("plan"))
      store.update_meta { |m| m.merge("resumed_at" => Array(m["resumed_at"]) + [Time.now.utc.iso8601]) }
      execute(plan, launches, bundles)
    end

    private

    def execute(plan, launches, bundles)
      @store.lock!
      @store.repair!
      remaining = plan.remaining(@store.trials)
      @progress.start(total: plan.batches.size, done: plan.batches.size - remaining.size)
      remaining.each { |batch| @store.append(run_batch(batch, launches, bundles)) }
      @store.update_meta { |m| m.merge("finished_at" => Time.now.utc.iso8601, "host_after" => host_after) }
      @progress.finish
      @store
    rescue Interrupt
      @progress.interrupted
      @store&.update_meta { |m| m.merge("interrupted_at" => Time.now.utc.iso8601, "host_after" => host_after) }
      raise
    end

    def run_batch(batch, launches, bundles)
      workload = @experiment.workloads.find { |w| w.name == batch.cell.workload }
      launch = launches.fetch(batch.cell.runtime)
      bundle = bundles[[batch.cell.runtime, workload.gemfile]]
      @progress.batch_started(batch)
      started_at = Time.now.utc
      clock = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      result = measure(batch, workload, launch, bundle)
      duration_s = Process.clock_gettime(Process::CLOCK_MONOTONIC) - clock
      trial = Trial.new(
        batch_id: batch.id, cell_key: batch.cell.key, runtime: batch.cell.runtime, workload: batch.cell.workload,
        params: batch.cell.params, batch: batch.number, position: batch.round,
        status: result.status, reason: result.reason,
        started_at: started_at.iso8601(3), finished_at: Time.now.utc.iso8601(3), duration_s: duration_s,
        metrics: result.metrics, samples: result.samples,
        facts: bundle ? result.facts.merge("lockfile_sha256" => bundle.lockfile_sha256) : result.facts,
        artifacts: result.artifacts, warnings: result.warnings
      )
      @progress.batch_finished(batch, trial)
      trial
    end

    def measure(batch, workload, launch, bundle)
      context = Drivers::Context.new(
        batch: batch, workload: workload, launch: launch,
        artifacts_dir: @store.artifacts_dir(batch.id), cpus: @settings.cpus || @experiment.cpus,
        timeout_s: workload.timeout_s || @experiment.timeout_s, bundle_env: bundle&.env,
        server_cpus: @settings.server_cpus, load_cpus: @settings.load_cpus
      )
      Drivers.fetch(workload.kind).new(context).run
    rescue Error => e # a batch that cannot even start (missing tool, bad port) fails alone; the run goes on
      Drivers::Base::Result.failed(e.message)
    end

    def resolve_launches
      jemalloc = Runtimes::Jemalloc.locate
      @experiment.runtimes.to_h do |runtime|
        interpreter = @catalog.resolve(runtime.base)
        [runtime.label, Runtimes::Launch.compose(runtime, interpreter, jemalloc_path: jemalloc)]
      end
    end

    # Installs each runtime's gem set for each workload Gemfile before the first batch, so that
    # installation never lands inside a measurement and a failure stops the run at once.
    def prepare_bundles(launches)
      pairs = @experiment.workloads.filter_map(&:gemfile).uniq.product(launches.keys)
      pairs.to_h do |gemfile, label|
        interpreter = launches.fetch(label).interpreter
        bundle = Runtimes::Bundle.new(cache_dir: @settings.cache_dir, interpreter: interpreter, gemfile: gemfile)
        @progress.note("Installing the gems of #{gemfile} for #{label}...") unless bundle.installed?
        [[label, gemfile], bundle.install!]
      end
    end

    def initial_meta(plan, launches, bundles, command_line)
      {
        "format_version" => RESULTS_FORMAT_VERSION,
        "rubyrig_version" => VERSION,
        "name" => @experiment.name,
        "created_at" => Time.now.utc.iso8601,
        "command_line" => command_line,
        "experiment" => @raw.merge("seed" => @experiment.seed),
        "experiment_base_dir" => @experiment.workloads.first&.base_dir,
        "baseline" => @experiment.baseline,
        "plan" => plan.to_h,
        "runtimes" => launches.transform_values { |l| launch_meta(l) },
        "bundles" => bundles.map { |(label, gemfile), b| {"runtime" => label, "gemfile" => gemfile, "lockfile" => b.lockfile, "lockfile_sha256" => b.lockfile_sha256} },
        "workloads" => @experiment.workloads.to_h { |w| [w.name, workload_meta(w)] },
        "host" => Host.new.facts,
        "tools" => {"host_ruby" => RUBY_DESCRIPTION}
      }
    end

    def workload_meta(workload)
      driver = Drivers.fetch(workload.kind)
      extra = driver.run_meta(workload, server_cpus: @settings.server_cpus, load_cpus: @settings.load_cpus,
        cpus: @settings.cpus || @experiment.cpus)
      {"kind" => workload.kind, "primary_metric" => driver.primary_metric(workload)}.merge(extra)
    end

    def launch_meta(launch)
      {
        "spec" => launch.runtime.spec,
        "interpreter" => launch.interpreter.to_h.transform_keys(&:to_s),
        "ruby_flags" => launch.ruby_flags,
        "env" => launch.env.compact,
        "expect" => launch.expect,
        "warnings" => launch.warnings
      }
    end

    def host_after
      host = Host.new
      {"load_average" => host.load_average}
    end
  end
end
