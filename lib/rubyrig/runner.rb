# Executes a plan: resolves every runtime and installs gem sets before the first batch, records the
# run's metadata (with the experiment's digest, and the shard when the run is one), runs the remaining
# batches in plan order through their drivers, and appends each trial, with the host it ran on, the
# moment it ends.
require "time"
require "fileutils"

module Rubyrig
  class Runner
    attr_reader :store

    # raw: the experiment data as given (file or CLI), stored so that a resume can re-validate it.
    # drivers: the registry that maps a workload kind to its driver class (Drivers, or a test's own).
    def initialize(experiment:, raw:, settings:, catalog:, progress:, drivers: Drivers)
      @experiment = experiment
      @raw = raw
      @settings = settings
      @catalog = catalog
      @progress = progress
      @drivers = drivers
    end

    # Starts a new run in dir and executes it. command: the subcommand that started it (compare, run, demo);
    # shard: the Shard this run is, or nil.
    def start(dir, command:, command_line:, shard: nil)
      prepare
      plan = Experiment::Plan.build(@experiment, effective: ->(workload, params) { @drivers.fetch(workload.kind).effective_params(workload, params) },
        shard: shard)
      @store = Results::Store.create(dir, initial_meta(plan, command, command_line, shard))
      prepare_workloads
      execute(plan)
    ensure
      @store&.unlock
    end

    # Continues the run in an existing store: locks it before anything is written, and refuses when a
    # runtime no longer resolves to the interpreter the run started with.
    def resume(store)
      @store = store
      store.lock!
      run = Results::RunMeta.new(store.meta)
      prepare
      check_same_interpreters!(run)
      store.read_trials.skipped.each { |line| @progress.note("Warning: #{line}") }
      store.update_meta { |m| m.merge("resumed_at" => Array(m["resumed_at"]) + [Time.now.utc.iso8601]) }
      prepare_workloads
      execute(run.plan)
    ensure
      store.unlock
    end

    private

    def prepare
      @launches = resolve_launches
      preflight
      @bundles = prepare_bundles
      @diagnostics = prepare_diagnostics
    end

    # Runs the measured batches, then (with --until decided) adds rounds look by look until every
    # primary comparison is decided or a limit is reached, then the diagnostic batches.
    def execute(plan)
      @store.repair!
      remaining = plan.remaining(@store.trials)
      @progress.start(total: plan.batches.size, done: plan.batches.size - remaining.size)
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      loop do
        plan.remaining(@store.trials).reject(&:diagnostic).each { |batch| @store.append(run_batch(batch)) }
        plan = next_plan(plan, started) || break
      end
      plan.remaining(@store.trials).each { |batch| @store.append(run_batch(batch)) }
      @store.update_meta { |m| m.merge("finished_at" => Time.now.utc.iso8601, "host_after" => host_after) }
      @progress.finish
      @store
    rescue Interrupt
      @progress.interrupted
      @store&.update_meta { |m| m.merge("interrupted_at" => Time.now.utc.iso8601, "host_after" => host_after) }
      raise
    end

    # After a look: the plan with rounds up to the next look, recorded in run.json, or nil when every
    # primary comparison is decided, the batches or the time are used up, or the run is not sequential.
    def next_plan(plan, started)
      decision = Results::RunMeta.new(@store.meta).decision
      return nil unless decision.until_decided
      n = plan.rounds
      states = primary_states
      @progress.note("Look at #{n} batches per cell: #{states.map { |s| s[:text] }.join("; ")}") unless states.empty?
      return nil if states.all? { |s| Analysis::Verdict.decided?(s[:verdict]) }
      sequential = Analysis::Sequential.new(min_batches: @experiment.batches, max_batches: decision.max_batches)
      following = sequential.next_look(n)
      return nil unless following
      if decision.max_time_s && Process.clock_gettime(Process::CLOCK_MONOTONIC) - started > decision.max_time_s
        @progress.note("Stopping: --max-time #{decision.max_time_s.round} s is used up with comparisons undecided")
        return nil
      end
      longer = plan.extended(following)
      @store.update_meta { |m| m.merge("plan" => longer.to_h.transform_keys(&:to_s)) }
      @progress.grow(total: longer.batches.size)
      longer
    end

    # The verdict of every primary comparison so far, each with a short text for the progress line.
    def primary_states
      report = Analysis.new.analyze(meta: @store.meta, trials: @store.trials)
      report.comparisons.select { |c| c.metric == report.primary_metric(c.workload) }.map do |c|
        params = c.params.map { |k, v| "#{k}=#{v}" }.join(",")
        where = [c.runtime, c.workload, (params unless params.empty?)].compact.join(" | ")
        ratio = c.ratio ? format(" %.3fx", c.ratio) : ""
        {verdict: c.verdict, text: "#{where} #{c.verdict}#{ratio}"}
      end
    end

    # Measures one batch and returns its trial. On a full disk it measures nothing, or records nothing
    # of a batch that ran out of room (its files may be cut short): StoreError, and resume measures it.
    def run_batch(batch)
      workload = @experiment.workloads.find { |w| w.name == batch.cell.workload }
      bundle = @bundles[[batch.cell.runtime, @drivers.fetch(workload.kind).gemfile(workload, batch.cell.params)]]
      @store.check_space!("batch #{batch.id} was not started")
      artifacts_dir = @store.prepare_artifacts_dir(batch.id)
      @progress.batch_started(batch)
      started_at = Time.now.utc
      clock = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      result = measure(batch, workload, bundle, artifacts_dir)
      duration_s = Process.clock_gettime(Process::CLOCK_MONOTONIC) - clock
      @store.check_space!("batch #{batch.id} was not recorded (its files may be cut short)")
      facts = bundle ? result.facts.merge(bundle_facts(bundle)) : result.facts
      trial = Results::Trial.new(
        batch_id: batch.id, cell_key: batch.cell.key, runtime: batch.cell.runtime, workload: batch.cell.workload,
        params: batch.cell.params, batch: batch.number, round: batch.round, diagnostic: batch.diagnostic,
        status: result.status, reason: result.reason,
        started_at: started_at.iso8601(3), finished_at: Time.now.utc.iso8601(3), duration_s: duration_s,
        metrics: result.metrics, samples: result.samples, facts: facts,
        artifacts: result.artifacts, warnings: result.warnings, host_id: host_id, items: result.items
      )
      @progress.batch_finished(batch, trial)
      trial
    end

    # What a trial records of its gem set: the lockfile's digest, and for an app's own lockfile its
    # digest too and whether the runtime used it as it is.
    def bundle_facts(bundle)
      {"lockfile_sha256" => bundle.lockfile_sha256, "source_lockfile_sha256" => bundle.source_lockfile_sha256,
       "lockfile_resolution" => bundle.resolution}.compact
    end

    def measure(batch, workload, bundle, artifacts_dir)
      launch = @launches.fetch(batch.cell.runtime)
      return Drivers::Base::Result.failed(launch.blocker) if launch.blocker
      context = Drivers::Context.new(
        batch: batch, workload: workload, launch: launch, artifacts_dir: artifacts_dir,
        cpus: @experiment.cpus, timeout_s: workload.timeout_s || @experiment.timeout_s,
        bundle_env: bundle&.env, diagnostics: diagnostics_setup(batch, artifacts_dir),
        server_cpus: @settings.server_cpus, load_cpus: @settings.load_cpus, inherit_env: @experiment.inherit_env
      )
      result = @drivers.fetch(workload.kind).new(context).run
      collect_diagnostics(batch, context, result)
    rescue Error => e # a batch that cannot even start (missing tool, bad port) fails alone; the run goes on
      Drivers::Base::Result.failed(e.message)
    rescue SystemCallError # a driver's own file (a config, a log) could not be written: a full disk stops the run
      @store.check_space!("batch #{batch.id} was not recorded (rubyrig could not write its files)")
      raise
    end

    # GVL metrics in every batch of a runtime that supports them; a trace or a profile only in the
    # cell's diagnostic batch of that kind.
    def diagnostics_setup(batch, artifacts_dir)
      diag = @diagnostics[batch.cell.runtime]
      return nil unless diag
      setup = {gem_dir: diag.dir, gvl: @experiment.gvl && diag.gvl?}
      if batch.diagnostic == "trace" && diag.supports?("gvl-tracing")
        setup[:trace_dir] = File.join(artifacts_dir, "trace").tap { |d| FileUtils.mkdir_p(d) }
      elsif batch.diagnostic == "profile" && diag.supports?(@experiment.profile)
        setup[:profiler] = @experiment.profile
        setup[:profile_dir] = File.join(artifacts_dir, "profile").tap { |d| FileUtils.mkdir_p(d) }
      end
      return nil unless setup[:gvl] || setup[:trace_dir] || setup[:profiler]
      Drivers::DiagnosticsSetup.new(**setup).freeze
    end

    # Turns a diagnostic batch's raw files into what the report needs: one trace file per process and
    # the time of each thread by GVL state, or the profile's frame table, in the trial's samples.
    def collect_diagnostics(batch, context, result)
      return result unless batch.diagnostic
      setup = context.diagnostics
      case batch.diagnostic
      when "trace"
        return with_warning(result, "no GVL trace: #{runtime_lacks("gvl-tracing", batch)}") unless setup&.trace_dir
        files = Diagnostics::GvlTrace.new(setup.trace_dir).merge(process_name: process_name(context.launch))
        result.artifacts = result.artifacts + files
        threads = Diagnostics::GvlSummary.collect(setup.trace_dir)
        result.samples = result.samples.merge("gvl_threads" => threads) if threads
      when "profile"
        return with_warning(result, "no profile: #{runtime_lacks(@experiment.profile, batch)}") unless setup&.profiler
        summary = Diagnostics::ProfileSummary.collect(setup.profile_dir)
        result.samples = result.samples.merge("profile" => summary) if summary
        result.artifacts = result.artifacts + ["profile"]
      end
      result
    end

    def with_warning(result, text)
      result.warnings = result.warnings + [text]
      result
    end

    def runtime_lacks(gem, batch)
      interpreter = @launches.fetch(batch.cell.runtime).interpreter
      problem = @diagnostics[batch.cell.runtime]&.problem
      problem || "#{gem} does not run on #{interpreter.engine} #{interpreter.version} (it needs CRuby 3.2 or later)"
    end

    # The runtime's full configuration, for the process names in a trace.
    def process_name(launch)
      parts = [launch.runtime.label, launch.interpreter.description]
      parts << launch.ruby_flags.join(" ") unless launch.ruby_flags.empty?
      env = launch.env.compact.map { |k, v| "#{k}=#{v}" }
      parts << env.join(" ") unless env.empty?
      parts.join(" · ")
    end

    # The same label must mean the same interpreter for every batch of a run: same path, same
    # RUBY_DESCRIPTION, same build (fingerprint).
    def check_same_interpreters!(run)
      @launches.each do |label, launch|
        before = run.runtime(label)["interpreter"] || {}
        now = launch.interpreter
        same = before["path"] == now.path && before["description"] == now.description &&
          (before["fingerprint"].nil? || before["fingerprint"] == now.fingerprint)
        next if same
        raise StoreError, "runtime '#{label}' was #{before["description"]} at #{before["path"]} when the run started, " \
          "but now resolves to #{now.description} at #{now.path}; put the original interpreter back, or start a new run"
      end
    end

    def preflight
      @experiment.workloads.product(@launches.values).each do |workload, launch|
        @drivers.fetch(workload.kind).preflight(workload, launch)
      end
    end

    def resolve_launches
      shim = Runtimes::Shim.new(root: File.join(@settings.cache_dir, "shims"))
      iseq = Runtimes::ProbeIseq.new(cache_dir: @settings.cache_dir)
      @experiment.runtimes.to_h do |runtime|
        interpreter = @catalog.resolve(runtime.base)
        launch = Runtimes::Launch.compose(runtime, interpreter, jemalloc: @settings.jemalloc, bin_dirs: shim.bin_dirs(interpreter),
          probe_iseq: iseq.path_for(interpreter))
        @progress.note("Warning: #{launch.blocker}; its batches will fail") if launch.blocker
        [runtime.label, launch]
      end
    end

    # Installs each runtime's gem set for each workload Gemfile before the first batch, so that
    # installation never lands inside a measurement and a failure stops the run at once.
    def prepare_bundles
      gemfiles = @experiment.workloads.flat_map { |w| @drivers.fetch(w.kind).gemfiles(w) }
      pairs = gemfiles.uniq.product(@launches.keys)
      pairs.to_h do |gemfile, label|
        interpreter = @launches.fetch(label).interpreter
        bundle = Runtimes::Bundle.new(cache_dir: @settings.cache_dir, interpreter: interpreter, gemfile: gemfile)
        @progress.note("Installing the gems of #{gemfile} for #{label}...") unless bundle.installed?
        bundle.install!
        if bundle.resolution == Runtimes::Bundle::RE_RESOLVED
          @progress.note("Warning: #{label} cannot use #{bundle.source_lockfile} as it is (#{bundle.resolution_reason}); " \
            "it runs its own resolution #{bundle.lockfile}")
        end
        [[label, gemfile], bundle]
      end
    end

    # Runs each workload's `prepare:` step once per runtime, before the first batch, and records when
    # and how long in run.json; its output goes to prepare/<workload>--<runtime>.log in the run.
    def prepare_workloads
      steps = @experiment.workloads.select(&:prepare).product(@launches.keys).map do |workload, label|
        driver = @drivers.fetch(workload.kind)
        log = @store.path("prepare", "#{Processes::FileName.safe(workload.name)}--#{Processes::FileName.safe(label)}.log")
        @progress.note("Preparing #{workload.name} for #{label}: #{workload.prepare.join(" ")}")
        step = Runtimes::PrepareStep.new(workload: workload, launch: @launches.fetch(label),
          bundle_env: @bundles[[label, workload.gemfile]]&.env, driver_env: driver.prepare_env(workload),
          chdir: driver.prepare_dir(workload), log_path: log, inherit_env: @experiment.inherit_env)
        {"workload" => workload.name, "runtime" => label, "argv" => workload.prepare, "duration_s" => step.run,
         "log" => File.join("prepare", File.basename(log)), "at" => Time.now.utc.iso8601}
      end
      @store.update_meta { |m| m.merge("prepared" => Array(m["prepared"]) + steps) } unless steps.empty?
    end

    # Installs the diagnostics gems of each runtime that can use them. A failure only costs the
    # diagnostics (reported as n/a with the reason), never the run.
    def prepare_diagnostics
      return {} unless @experiment.gvl || @experiment.trace || @experiment.profile
      @launches.to_h do |label, launch|
        wanted = Runtimes::Diagnostics.wanted(gvl: @experiment.gvl, trace: @experiment.trace, profile: @experiment.profile)
        diag = Runtimes::Diagnostics.new(cache_dir: @settings.cache_dir, interpreter: launch.interpreter, wanted: wanted)
        next [label, nil] if diag.gems.empty?
        unless diag.installed?
          @progress.note("Installing #{(diag.gems - diag.installed_gems).join(", ")} for #{label} (diagnostics, once)...")
          @progress.note("Warning: #{diag.problem}; GVL metrics, traces and profiles are n/a for #{label}") unless diag.install!
        end
        [label, diag.installed? ? diag : nil]
      end
    end

    # The host this process measures on: --host-id or RUBYRIG_HOST_ID (a container sets it to its node's
    # name), else the hostname.
    def host_id = (@host_id ||= @settings.host_id || Processes::Host.new.facts["hostname"])

    def initial_meta(plan, command, command_line, shard)
      experiment = @raw.merge("seed" => @experiment.seed)
      meta = {
        "format_version" => RESULTS_FORMAT_VERSION,
        "rubyrig_version" => VERSION,
        "name" => @experiment.name,
        "created_at" => Time.now.utc.iso8601,
        "command" => command,
        "command_line" => command_line,
        "cpu_settings" => {"server_cpus" => @settings.server_cpus, "load_cpus" => @settings.load_cpus},
        "experiment" => experiment,
        "experiment_digest" => Experiment::ContentDigest.of(experiment, @experiment.workloads,
          paths: ->(w) { @drivers.fetch(w.kind).digest_paths(w) }),
        "experiment_base_dir" => @experiment.workloads.first&.base_dir,
        "decision" => decision_meta,
        "baseline" => @experiment.baseline,
        "plan" => plan.to_h,
        "runtimes" => @launches.transform_values { |l| launch_meta(l) },
        "bundles" => @bundles.map { |(label, gemfile), b| {"runtime" => label, "gemfile" => gemfile}.merge(b.to_h) },
        "workloads" => @experiment.workloads.to_h { |w| [w.name, workload_meta(w)] },
        "diagnostics" => {"gvl" => @experiment.gvl, "trace" => @experiment.trace, "profile" => @experiment.profile},
        "host" => Processes::Host.new.facts.merge("host_id" => host_id),
        "tools" => {"host_ruby" => RUBY_DESCRIPTION}
      }
      return meta unless shard
      meta.merge("shard" => {"index" => shard.index, "count" => shard.count, "seed" => plan.seed, "run_seed" => @experiment.seed,
                             "batches" => shard.batches(@experiment.batches), "total_batches" => @experiment.batches})
    end

    # How comparisons are decided, with the number of looks a sequential run may take (the analysis
    # corrects every interval of the run for all of them, however early the run stopped).
    def decision_meta
      decision = @experiment.decision
      looks = if decision.until_decided
        Analysis::Sequential.new(min_batches: @experiment.batches, max_batches: decision.max_batches).k
      else
        1
      end
      decision.to_h.merge("looks" => looks)
    end

    def workload_meta(workload)
      driver = @drivers.fetch(workload.kind)
      extra = driver.run_meta(workload, server_cpus: @settings.server_cpus, load_cpus: @settings.load_cpus,
        cpus: @experiment.cpus)
      {"kind" => workload.kind, "primary_metric" => driver.primary_metric(workload),
       "primary_metrics" => driver.primary_metrics(workload), "sweeps" => workload.sweeps}.merge(extra)
    end

    def launch_meta(launch)
      diag = @diagnostics[launch.runtime.label]
      {
        "spec" => launch.runtime.spec,
        "interpreter" => launch.interpreter.to_h.transform_keys(&:to_s),
        "ruby_flags" => launch.ruby_flags,
        "env" => launch.env.compact,
        "expect" => launch.expect,
        "warnings" => launch.warnings,
        "diagnostics_gems" => diag ? diag.installed_gems : []
      }
    end

    def host_after
      {"load_average" => Processes::Host.new.load_average}
    end
  end
end
