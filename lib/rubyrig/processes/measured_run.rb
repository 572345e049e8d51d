# Runs one measured process tree under a runtime, for a batch's context (Kinds::Context): composes the environment (probe, variants, gem set),
# spawns it pinned and in its own group, samples it with the Monitor, enforces the deadline, then
# reads every probe file and turns it all into the standard metrics and the variant verdict.
# Scripts and commands use #run; long-lived servers and workers use #start, #snapshot and #finish.
require "json"
require "fileutils"

module Rubyrig
  module Processes
    class MeasuredRun
      PROBE_LOADER = File.expand_path("../probe/loader.rb", __dir__)
      # The Monitor's first sample waits until the process has started: sampled at its exec, it was one
      # more thread of rubyrig's wanting a CPU just when the timer and rubyrig's others did, and the
      # command waited longer for one (bench/run-delay: the time it was runnable but not running, from
      # its /proc/self/schedstat). A process that ends sooner has no sample: a Ruby's peak RSS is its
      # probe's high-water mark, another's is not measured.
      FIRST_SAMPLE_S = 0.02
      HARNESS = File.expand_path("../probe/harness.rb", __dir__)
      DIAGNOSTICS = File.expand_path("../probe/diagnostics.rb", __dir__)

      # What came back: the exit, every probe report, the root process's report and the metrics.
      # exit_text: how it ended in words (ExitCause: Ruby's crash report, the OOM killer).
      Outcome = Struct.new(:exit, :exit_text, :timed_out, :stopped, :probes, :root_probe, :metrics, :problems, :warnings,
        :stderr_tail, :stderr_name, keyword_init: true) do
        # A process rubyrig stopped on purpose (a server after its load) may end by TERM.
        def ok? = !timed_out && problems.empty? && (exit&.success? || (stopped && exit&.signal == "TERM"))

        def failure_reason
          return "timed out; raise timeout_s or shorten the workload" if timed_out
          return problems.join("; ") unless problems.empty?
          # After Ruby's crash report, stderr ends in its memory map: the report's first line says more.
          return "#{exit_text}; see #{stderr_name}" if crashed?
          tail = stderr_tail.to_s.strip
          "#{exit_text}#{": #{tail}" unless tail.empty?}"
        end

        def crashed? = exit&.signal == "ABRT" && exit_text != exit.describe

        # What the probe saw in the root process, plus how the process ended, for the trial record.
        def facts
          root = root_probe || {}
          {
            "description" => root["description"],
            "engine" => root["engine"],
            "yjit_enabled" => root["yjit_enabled"],
            "allocator" => root["allocator"],
            "mn_threads_env" => root["mn_threads_env"],
            "ruby_processes" => probes.size,
            "exit_status" => exit&.status,
            "exit_signal" => exit&.signal,
            "probe_load_s" => root["probe_load_s"],
            "probe_report_s" => root["probe_report_s"]
          }.compact
        end
      end

      # ruby_root: the spawned process is the runtime's Ruby itself (not a shell or another program), so
      # it must report its facts, or the batch fails unverified. early_facts: a long-lived server or
      # worker that rubyrig may have to kill; its processes also write their facts at boot.
      def initialize(context, monitor_interval_s: 0.2, ruby_root: false, early_facts: false)
        @context = context
        @launch = context.launch
        @monitor_interval_s = monitor_interval_s
        @ruby_root = ruby_root
        @early_facts = early_facts
      end

      # The environment of a measured Ruby: only what InheritedEnv passes on of rubyrig's own, then
      # variant settings, the probe in RUBYOPT (so that child Ruby processes report too), the
      # interpreter first on PATH, and the cell's parameters. inherit_flags: the runtime's flags
      # (--yjit...) also go where every Ruby the workload starts itself reads them: RUBYOPT for CRuby,
      # JRUBY_OPTS for JRuby (whose RUBYOPT refuses its -X options).
      def env(inherit_flags: false)
        flags = inherit_flags ? @launch.ruby_flags : []
        jruby = @launch.interpreter.jruby?
        # The native fast path where it was built, unless diagnostics, which use the Ruby probe, are on.
        native = @launch.probe_native unless @context.diagnostics
        rubyopt = ["-r#{native || PROBE_LOADER}"]
        rubyopt << "-r#{DIAGNOSTICS}" if @context.diagnostics
        rubyopt.concat(flags) unless jruby
        rubyopt << @launch.runtime.env["RUBYOPT"] if @launch.runtime.env["RUBYOPT"]
        jruby_opts = (jruby && !flags.empty?) ? {"JRUBY_OPTS" => [*flags, @launch.env["JRUBY_OPTS"]].compact.join(" ")} : {}
        base = Processes::InheritedEnv.withheld(@context.inherit_env.to_a).merge(@launch.env)
        base.merge(@context.bundle_env || {}).merge(@context.diagnostics&.env || {}).merge(jruby_opts).merge(
          "RUBYOPT" => rubyopt.join(" "),
          "RUBYRIG_PROBE_DIR" => probe_dir,
          "RUBYRIG_PROBE_ISEQ" => @launch.probe_iseq,
          "RUBYRIG_PROBE_LOADER" => native && PROBE_LOADER,
          "RUBYRIG_PROBE_ENV_KEYS" => @launch.echoed_env_keys.join(","),
          "RUBYRIG_PROBE_EARLY" => @early_facts ? "1" : nil,
          "RUBYRIG_PROBE_PSS" => @early_facts ? "1" : nil,
          "RUBYRIG_PROBE_ALLOCATOR" => @launch.expect["allocator"] ? "1" : nil,
          "RUBYRIG_PROBE_MN" => @launch.expect["mn_active"] ? "1" : nil,
          "RUBYRIG_PARAMS" => @context.params_env,
          "RUBYRIG_ITERATIONS" => @context.workload.iterations&.to_s,
          "RUBYRIG_WARMUP" => @context.workload.warmup&.to_s,
          "PATH" => [*@launch.bin_dirs, ENV.fetch("PATH", "")].join(File::PATH_SEPARATOR)
        )
      end

      # Where the probes write (Processes::ProbeDir: on tmpfs where there is one); their files end in the
      # batch's artifacts, under probe/.
      def probe_dir
        (@probe_dir ||= Processes::ProbeDir.new(kept: File.join(@context.artifacts_dir, "probe"))).path
      end

      attr_reader :child, :monitor

      # Runs argv to completion (or its deadline) and returns the Outcome.
      def run(argv, env:, chdir: nil)
        start(argv, env: env, chdir: chdir)
        exit = wait(timeout_s: @context.timeout_s)
        finish(timed_out: exit.nil?)
      ensure
        abort
      end

      # Spawns argv and starts sampling it. The caller calls #finish to collect the outcome, and
      # #abort in an ensure so that an exception or Ctrl-C never leaves the tree running.
      def start(argv, env:, chdir: nil, log_prefix: "")
        @stderr_path = File.join(@context.artifacts_dir, "#{log_prefix}stderr.log")
        @oom_kills_before = Processes::ExitCause.oom_kills
        @monitor = Processes::Monitor.new(interval_s: @monitor_interval_s, first_sample_s: FIRST_SAMPLE_S).start # its thread first: see Monitor
        @child = Processes::Child.spawn(argv, env: env, chdir: chdir, cpus: @context.cpus,
          out: File.join(@context.artifacts_dir, "#{log_prefix}stdout.log"), err: @stderr_path)
        @monitor.watch(@child.pid)
        self
      end

      def wait(timeout_s:) = @child.wait(timeout_s: timeout_s)

      # How the process ended, in words: its status or signal, Ruby's crash report, the OOM killer.
      def exit_text(exit) = Processes::ExitCause.describe(exit, pid: @child.pid, stderr_path: @stderr_path, oom_kills_before: @oom_kills_before)

      # Memory of the whole tree now, for processes that are measured while running (servers): the
      # end RSS and PSS reported for the batch come from the last snapshot instead of the probes.
      def snapshot
        reading = @monitor.sample
        @snapshot = {"end_rss_bytes" => reading&.rss_bytes, "end_pss_bytes" => @monitor.pss_bytes}.compact
      end

      # Stops whatever still runs (TERM, grace, KILL for the whole group) and collects the outcome.
      # stopped: true says rubyrig ended the process on purpose, so an exit by TERM is not a failure.
      def finish(timed_out: false, stopped: false, grace_s: 5.0)
        @monitor.stop
        @child.stop(grace_s: grace_s)
        exit = @child.wait
        collect(exit, timed_out, stopped, @child.pid, @monitor, @stderr_path)
      end

      # Stops the monitor and the process group, and sweeps up what the process left, without
      # collecting anything; safe to repeat, and after the process has exited.
      def abort
        @monitor&.stop
        @child&.stop(grace_s: 1.0)
        @probe_dir&.keep
      end

      private

      def collect(exit, timed_out, stopped, root_pid, monitor, stderr_path)
        probes = read_probes
        complete = probes.reject { |p| p["boot_only"] }
        root = complete.find { |p| p["pid"] == root_pid } || probes.find { |p| p["pid"] == root_pid } || complete.first
        problems = probes.flat_map { |p| @launch.contradictions(p) }.uniq
        # A Ruby killed by a signal could not write its facts; the signal is the reason it failed.
        if @ruby_root && !timed_out && exit&.signal.nil? && probes.none? { |p| p["pid"] == root_pid }
          problems << unverified(root_pid)
        end
        warnings = @launch.warnings.dup
        if probes.empty? && !@launch.expect.empty? && !@ruby_root
          warnings << "no Ruby process reported its facts, so the runtime's variants are unverified"
        end
        warnings.concat(@launch.unverified(probes))
        Outcome.new(
          exit: exit, exit_text: exit && exit_text(exit), timed_out: timed_out, stopped: stopped, probes: probes, root_probe: root,
          metrics: metrics(exit, complete, root, monitor), problems: problems.compact, warnings: warnings,
          stderr_tail: tail(stderr_path), stderr_name: File.basename(stderr_path)
        )
      end

      def unverified(pid)
        "the Ruby process (pid #{pid}) wrote no facts, so what ran is unverified; did it exit through exit! or exec, " \
          "or die before its first line? (see #{File.basename(@stderr_path)})"
      end

      # Every process's exit report, and for those that never reached their exit, their boot facts.
      def read_probes
        dir = @probe_dir&.keep
        return [] unless dir
        full = read_json(Dir.glob(File.join(dir, "probe-*.json")).reject { |f| f.end_with?(".boot.json") })
        seen = full.map { |p| p["pid"] }
        boot = read_json(Dir.glob(File.join(dir, "probe-*.boot.json"))).reject { |p| seen.include?(p["pid"]) }
        full + boot
      end

      def read_json(files)
        files.sort.filter_map do |file|
          Processes::TextFile.json(file)
        rescue JSON::ParserError # a process killed while writing; its facts are lost, the others stand
          nil
        end
      end

      def metrics(exit, probes, root, monitor)
        m = {
          "wall_s" => exit.wall_s,
          "cpu_user_s" => exit.cpu_user_s,
          "cpu_sys_s" => exit.cpu_sys_s,
          "voluntary_ctx_switches" => exit.voluntary_ctx_switches,
          "involuntary_ctx_switches" => exit.involuntary_ctx_switches
        }
        memory = probes.map { |p| p["memory"] || {} }
        # wait4's max RSS is not used: Linux carries the forked rubyrig's high-water mark across exec.
        hwm = memory.filter_map { |mem| mem["hwm_bytes"] }.max
        m["peak_rss_bytes"] = [monitor.peak_rss_bytes, hwm].compact.max
        if memory.any? && memory.all? { |mem| mem["rss_bytes"] }
          m["end_rss_bytes"] = memory.sum { |mem| mem["rss_bytes"] }
          m["end_pss_bytes"] = memory.sum { |mem| mem["pss_bytes"] } if memory.all? { |mem| mem["pss_bytes"] }
          m["ruby_heap_bytes"] = memory.sum { |mem| mem["ruby_heap_bytes"] } if memory.all? { |mem| mem["ruby_heap_bytes"] }
        end
        m.merge!(@snapshot) if @snapshot
        m.merge!(gc_metrics(probes))
        m.merge!(gvl_metrics(probes))
        m.merge!(yjit_metrics(root))
        m.compact
      end

      def gc_metrics(probes)
        gcs = probes.map { |p| p["gc"] || {} }
        return {} if gcs.empty?
        sum = ->(key) { (gcs.all? { |g| g[key] }) ? gcs.sum { |g| g[key] } : nil }
        {
          "gc_count" => sum.call("count"),
          "gc_minor_count" => sum.call("minor_count"),
          "gc_major_count" => sum.call("major_count"),
          "gc_time_s" => sum.call("time_ms")&./(1000.0)
        }
      end

      # GVL wait summed over every thread of every process; so the fraction of wall time can exceed 1
      # when several threads wait at once.
      def gvl_metrics(probes)
        gvls = probes.filter_map { |p| p["gvl"] }
        return {} if gvls.empty?
        wall_s = gvls.sum { |g| g["wall_s"].to_f }
        {
          "gvl_wait_s" => gvls.sum { |g| g["wait_s"].to_f },
          "gvl_wait_fraction" => wall_s.positive? ? gvls.sum { |g| g["wait_s"].to_f } / wall_s : nil,
          "gvl_waiting_threads" => (gvls.all? { |g| g["waiting_threads_mean"] }) ? gvls.sum { |g| g["waiting_threads_mean"] } : nil
        }
      end

      def yjit_metrics(root)
        stats = root && root["yjit"]
        return {} unless stats
        {
          "yjit_code_region_bytes" => stats["code_region_size"],
          "yjit_alloc_bytes" => stats["yjit_alloc_size"],
          "yjit_compile_time_s" => stats["compile_time_ns"]&./(1e9),
          # YJIT reports this ratio in percent.
          "yjit_ratio_in_yjit" => stats["ratio_in_yjit"]&./(100.0)
        }
      end

      # Ruby's report of an uncaught exception ("x.rb:4:in `<main>': uninitialized constant Data
      # (NameError)") says more than the last line of stderr, which is then the code it points at, a
      # caret line or the backtrace: the last such report among the last 200 lines, else the last line.
      def tail(path)
        lines = Processes::TextFile.tail(path, lines: 200, chars: 200_000, separator: "\n").to_s.lines.map(&:strip)
        lines.reverse.find { |l| l.match?(/\S: .*\(([A-Z]\w*)(::[A-Z]\w*)*\)\z/) }&.slice(0, 300) || lines.last&.slice(0, 300)
      end
    end
  end
end
