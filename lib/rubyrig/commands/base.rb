# What the subcommands share: the runtime catalog, export options, running an experiment into a
# results directory, and rendering its report to the terminal and to files.
require "optparse"
require "time"

module Rubyrig
  module Commands
    class Base
      def initialize(argv, settings)
        @argv = argv
        @settings = settings
        @exports = {}
        @gate = []
      end

      private

      def out = @settings.out

      def err = @settings.err

      def catalog
        @catalog ||= Rubyrig::Runtimes::Catalog.new(
          discovery: Rubyrig::Runtimes::Discovery.new(env: @settings.env, cache_dir: @settings.cache_dir),
          fingerprint: Rubyrig::Runtimes::Fingerprint.new(cache_dir: @settings.cache_dir)
        )
      end

      # Parses @argv with parser; -h/--help prints the help and returns nil (OptionParser's own
      # --help would call exit, which a library must never do).
      def parse(parser)
        help = false
        parser.on("-h", "--help", "show this help") { help = true }
        rest = parser.parse(@argv)
        if help
          out.puts(parser.help)
          return nil
        end
        rest
      end

      # Options that load diagnostics into the measured processes; they fill `into` like a file would.
      def diagnostics_options(opts, into)
        opts.on("--no-gvl", "do not measure GVL wait (default: measured on CRuby 3.2+ with gvltools)") { into["gvl"] = false }
        opts.on("--trace KIND", "record one extra batch per cell with a trace: #{Experiment::TRACES.join(" or ")} (Perfetto JSON; default: none)") do |t|
          into["trace"] = choice("--trace", t, Experiment::TRACES)
        end
        opts.on("--profile NAME", "profile one extra batch per cell: #{Experiment::PROFILERS.join(" or ")} (default: none)") do |p|
          into["profile"] = choice("--profile", p, Experiment::PROFILERS)
        end
      end

      # How comparisons are decided; they fill `into` like a file would, and --fail-if the gate.
      def decision_options(opts, into)
        opts.on("--equivalence PCT", "a change within ±PCT of 1.0 counts as equivalent, e.g. 1% (default: 2%)") { |p| into["equivalence"] = p }
        opts.on("--until RULE", "decided: add interleaved rounds until every primary comparison is faster, slower or equivalent (default: exactly --batches)") do |rule|
          into["until"] = choice("--until", rule, %w[decided])
        end
        opts.on("--max-batches N", Integer, "with --until decided: at most N batches per cell (default: 30)") { |n| into["max_batches"] = n }
        opts.on("--max-time DURATION", "with --until decided: add no round after DURATION, e.g. 30m or 1h30m (default: no limit)") { |d| into["max_time"] = d }
        opts.on("--fail-if CONDITION", FAIL_IF_HELP) do |c|
          @gate << Analysis::Gate.parse(c)
        end
      end

      # The help of --fail-if, for every command that gates.
      FAIL_IF_HELP = "exit 3 when a primary comparison is slower, slower:5% (slower by more than 5%) or inconclusive, or appeared:METRIC (it was 0 on the baseline, decided); errors that appear or rise (decided) fail any gate (repeatable; default: never)"

      # --inherit-env NAME, for the variables a workload needs from the user's environment.
      def inherit_env_option(opts, into)
        opts.on("--inherit-env NAME", "also pass NAME, or every variable starting with PREFIX given as PREFIX*, from your environment to the " \
          "measured processes (repeatable; default: only PATH, HOME, USER, LOGNAME, LANG, LANGUAGE, LC_*, TZ, TMPDIR, LD_LIBRARY_PATH, JAVA_HOME)") do |name|
          into << name
        end
      end

      def choice(flag, value, choices)
        return value if choices.include?(value)
        raise UsageError, "#{flag} must be one of #{choices.join(", ")}, got '#{value}'; #{Suggest.hint(value, choices)}"
      end

      def cpu_list(flag, value)
        return value if Processes::CpuList.valid?(value)
        raise UsageError, "#{flag} #{Processes::CpuList.problem(value)}"
      end

      def export_options(opts)
        opts.on("--export-json FILE", "also write the report as JSON to FILE") { |f| @exports[:json] = export_target("--export-json", f) }
        opts.on("--export-csv FILE", "also write the report as CSV to FILE") { |f| @exports[:csv] = export_target("--export-csv", f) }
        opts.on("--export-markdown FILE", "also write a Markdown report for bug trackers to FILE") { |f| @exports[:markdown] = export_target("--export-markdown", f) }
        opts.on("--export-html FILE", "also write the self-contained HTML report with charts to FILE") { |f| @exports[:html] = export_target("--export-html", f) }
      end

      # An export is written after the run, so a path that cannot be written is refused before it.
      def export_target(flag, path)
        raise UsageError, "#{flag} needs a file name, e.g. #{flag} report.out" if path.empty?
        folder = File.dirname(File.expand_path(path))
        problem = if File.directory?(path) then "is a directory"
        elsif !File.directory?(folder) then "is in #{folder}, which does not exist; create it first"
        elsif !File.writable?(folder) || (File.exist?(path) && !File.writable?(path)) then "cannot be written (permission denied)"
        end
        raise UsageError, "#{flag} #{path} #{problem}; give a file in a writable folder" if problem
        path
      end

      # For http workloads: where the app server and the load generator run (override the workload's keys).
      def cpu_split_options(opts)
        {"--server-cpus" => :server_cpus=, "--load-cpus" => :load_cpus=}.each do |flag, setter|
          what = (setter == :server_cpus=) ? "the app server" : "the load generator"
          opts.on("#{flag} LIST", "http: run #{what} on these CPUs, e.g. 1 (default: load generator on the first CPU, server on the rest)") do |list|
            raise UsageError, "#{flag} #{Processes::CpuList.problem(list)}" unless Processes::CpuList.valid?(list)
            @settings.public_send(setter, list)
          end
        end
      end

      def default_results_dir(name)
        stamp = Time.now.strftime("%Y%m%d-%H%M%S")
        File.join(@settings.results_root, "#{stamp}-#{Processes::FileName.safe(name)}")
      end

      def runner(experiment, raw)
        Rubyrig::Run::Runner.new(experiment: experiment, raw: raw, settings: @settings, catalog: catalog,
          progress: Progress.new(io: err, tty: @settings.tty))
      end

      # Runs (or resumes) and reports; Ctrl-C keeps what was measured and says how to continue.
      def execute(dir)
        store = yield
        render(store)
      rescue Interrupt
        err.puts("\n" + Printable.line("rubyrig: interrupted; the batches already measured are in #{dir}/trials.jsonl; " \
          "continue with `rubyrig run --resume #{dir}`"))
        CLI::EXIT_INTERRUPTED
      end

      # Prints the terminal report, writes report.md and summary.json into the run, and the exports; the
      # gate's lines too name each metric as the run recorded it.
      def render(store)
        reading = store.read_trials
        report = Analysis.new(sections: @settings.sections || Analysis::Sections::DEFAULT).analyze(meta: store.meta, trials: reading.trials, skipped: reading.skipped)
        Metrics.using(report.metrics) { present(report, store) }
      end

      def present(report, store)
        out.print(Reporters::Terminal.new(report, color: @settings.color).render)
        written = export(report, store)
        out.puts(Printable.line("Results: #{store.dir} (#{(written.map { |p| File.basename(p) } + ["trials.jsonl"]).uniq.join(", ")})"))
        gate = Analysis::Gate.failures(report, @gate)
        step_summary(report, gate)
        failed = report.failed_trials.size
        err.puts("rubyrig: #{failed} batch#{"es" if failed > 1} failed; the reasons are in the warnings above") unless failed.zero?
        gate.each { |line| err.puts(Printable.line("rubyrig: #{line}")) }
        return CLI::EXIT_GATE unless gate.empty?
        failed.zero? ? CLI::EXIT_OK : CLI::EXIT_ERROR
      end

      # summary.json, report.md and report.html into the run, then the exports asked for.
      def export(report, store)
        own = begin
          Reporters.export(report, {json: store.path("summary.json"), markdown: store.path("report.md"), html: store.path("report.html")})
        rescue Reporters::WriteError => e # a full disk: the trials are safe, the report can be written again
          raise StoreError, "could not write the report (#{e.cause&.message || e.message}); every trial is in #{store.path(Results::Store::TRIALS_FILE)}: " \
            "free space, then `rubyrig report #{store.dir}` writes it"
        end
        own + Reporters.export(report, @exports)
      end

      # In a GitHub Actions step, the Markdown report (and the gate's result) goes to the job summary.
      def step_summary(report, gate)
        return unless step_summary_path
        text = Reporters::Markdown.new(report).render
        text += "\n**rubyrig --fail-if**: #{gate.empty? ? "passed" : "failed"}\n\n#{gate.map { |l| "- #{l}" }.join("\n")}\n" unless @gate.empty?
        append_step_summary(text)
      end

      # The job summary's file in a GitHub Actions step, else nil.
      def step_summary_path
        path = @settings.env["GITHUB_STEP_SUMMARY"]
        (path.nil? || path.empty?) ? nil : path
      end

      def append_step_summary(text)
        File.write(step_summary_path, text + "\n", mode: "a")
      rescue SystemCallError => e # an unwritable summary file must not hide the command's own result
        err.puts(Printable.line("rubyrig: could not append to GITHUB_STEP_SUMMARY (#{step_summary_path}): #{e.message}"))
      end
    end
  end
end
