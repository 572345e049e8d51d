# Everything a run does once before its first batch, so that nothing of it lands inside a measurement
# and a failure stops the run at once: resolves each runtime to a Launch, preflights each workload on
# each runtime, installs each runtime's gem set for each workload Gemfile and the diagnostics gems, and
# runs each workload's `prepare:` step once per runtime (recorded in run.json).
require "time"

module Rubyrig
  module Run
    class Preparation
      # What the batches of a run share: label => Launch, [label, gemfile] => Runtimes::Bundle, and
      # label => Runtimes::Diagnostics (nil where the diagnostics gems are not installed).
      # blocked: [label, gemfile] => why its gem set did not install, for the Gemfiles of cells that fail
      # alone (Contract#cells_fail_alone?): their batches fail with it, the others run.
      Prepared = Struct.new(:launches, :bundles, :diagnostics, :blocked, keyword_init: true)

      def initialize(experiment:, settings:, catalog:, progress:, kinds:)
        @experiment = experiment
        @settings = settings
        @catalog = catalog
        @progress = progress
        @kinds = kinds
        @noted_added = [] # the Gemfiles whose added gems were said
      end

      def prepare
        launches = resolve_launches
        preflight(launches)
        blocked = {}
        Prepared.new(launches: launches, bundles: install_bundles(launches, blocked), diagnostics: install_diagnostics(launches),
          blocked: blocked.freeze).freeze
      end

      # Runs each workload's `prepare:` step once per runtime and records when and how long in run.json;
      # its output goes to prepare/<workload>--<runtime>.log in the run.
      def prepare_workloads(store, prepared)
        steps = @experiment.workloads.select(&:prepare).product(prepared.launches.keys).map do |workload, label|
          prepare_workload(store, prepared, workload, label)
        end
        store.update_meta { |m| m.with(prepared: m.prepared + steps) } unless steps.empty?
      end

      private

      def resolve_launches
        shim = Runtimes::Shim.new(root: File.join(@settings.cache_dir, "shims"))
        iseq = Runtimes::ProbeIseq.new(cache_dir: @settings.cache_dir)
        native = Runtimes::ProbeNative.new(cache_dir: @settings.cache_dir)
        @experiment.runtimes.to_h do |runtime|
          interpreter = @catalog.resolve(runtime.base)
          launch = Runtimes::Launch.compose(runtime, interpreter, jemalloc: @settings.jemalloc, bin_dirs: shim.bin_dirs(interpreter),
            probe_iseq: iseq.path_for(interpreter), probe_native: native.path_for(interpreter))
          @progress.note("Warning: #{launch.blocker}; its batches will fail") if launch.blocker
          [runtime.label, launch]
        end
      end

      def preflight(launches)
        @experiment.workloads.product(launches.values).each do |workload, launch|
          @kinds.fetch(workload.kind).preflight(workload, launch)
        end
      end

      def install_bundles(launches, blocked)
        alone = @experiment.workloads.select { |w| @kinds.fetch(w.kind).cells_fail_alone?(w) }.flat_map { |w| @kinds.fetch(w.kind).gemfiles(w) }
        required = required_gems
        failed = {} # [interpreter, gemfile] => why: runtimes of one interpreter share a gem set, so it is tried once
        required.keys.product(launches.keys).each_with_object({}) do |(gemfile, label), bundles|
          key = [launches.fetch(label).interpreter.path, gemfile]
          if failed.key?(key)
            blocked[[label, gemfile]] = failed[key]
            next
          end
          bundles[[label, gemfile]] = install_bundle(gemfile, label, launches, required.fetch(gemfile))
        rescue BuildError => e # a benchmark of a suite whose gems do not install on this runtime: its cells fail, the rest runs
          raise unless alone.include?(gemfile)
          @progress.note("Warning: #{e.message}; its batches on #{label} will fail")
          blocked[[label, gemfile]] = failed[key] = e.message
        end
      end

      # Every Gemfile of the workloads => the gems their kinds run with (Contract#required_gems).
      def required_gems
        @experiment.workloads.each_with_object({}) do |w, required|
          kind = @kinds.fetch(w.kind)
          kind.gemfiles(w).each { |gemfile| required[gemfile] = (required.fetch(gemfile, []) | kind.required_gems(w)) }
        end
      end

      def install_bundle(gemfile, label, launches, required_gems)
        bundle = Runtimes::Bundle.new(cache_dir: @settings.cache_dir, interpreter: launches.fetch(label).interpreter,
          gemfile: gemfile, required_gems: required_gems)
        @progress.note("Installing the gems of #{gemfile} for #{label}...") unless bundle.installed?
        bundle.install!
        note_added(bundle)
        if bundle.resolution == Runtimes::Bundle::RE_RESOLVED && !bundle.added_only?
          @progress.note("Warning: #{label} cannot use #{bundle.source_lockfile} as it is (#{bundle.resolution_reason}); " \
            "it runs its own resolution #{bundle.lockfile}")
        end
        bundle
      end

      # Once per Gemfile, whatever the runtimes: what rubyrig added to the app's gem set.
      def note_added(bundle)
        return if bundle.added_gems.empty? || @noted_added.include?(bundle.gemfile)
        @noted_added << bundle.gemfile
        @progress.note("rubyrig added #{bundle.added_gems.join(", ")} to #{File.basename(File.dirname(bundle.gemfile))}'s gem set " \
          "(the app's bundle lacks #{(bundle.added_gems.size == 1) ? "it" : "them"})")
      end

      # A failure only costs the diagnostics (reported as n/a with the reason), never the run.
      def install_diagnostics(launches)
        return {} unless @experiment.gvl || @experiment.trace || @experiment.profile
        wanted = Runtimes::Diagnostics.wanted(gvl: @experiment.gvl, trace: @experiment.trace, profile: @experiment.profile)
        launches.to_h do |label, launch|
          diag = Runtimes::Diagnostics.new(cache_dir: @settings.cache_dir, interpreter: launch.interpreter, wanted: wanted)
          next [label, nil] if diag.gems.empty?
          unless diag.installed?
            @progress.note("Installing #{(diag.gems - diag.installed_gems).join(", ")} for #{label} (diagnostics, once)...")
            @progress.note("Warning: #{diag.problem}; GVL metrics, traces and profiles are n/a for #{label}") unless diag.install!
          end
          [label, diag.installed? ? diag : nil]
        end
      end

      def prepare_workload(store, prepared, workload, label)
        dir, env = @kinds.fetch(workload.kind).prepare(workload)
        log = store.path("prepare", "#{Processes::FileName.safe(workload.name)}--#{Processes::FileName.safe(label)}.log")
        @progress.note("Preparing #{workload.name} for #{label}: #{workload.prepare.join(" ")}")
        step = Runtimes::PrepareStep.new(workload: workload, launch: prepared.launches.fetch(label),
          bundle_env: prepared.bundles[[label, workload.gemfile]]&.env, driver_env: env,
          chdir: dir, log_path: log, inherit_env: @experiment.inherit_env)
        {"workload" => workload.name, "runtime" => label, "argv" => workload.prepare, "duration_s" => step.run,
         "log" => File.join("prepare", File.basename(log)), "at" => Time.now.utc.iso8601}
      end
    end
  end
end
