# `rubyrig why RESULTS_DIR`: reruns each decided difference of a finished run with one factor switched
# at a time (Ablation::Investigation), records the answers in its run.json, prints them and writes the
# run's report again with them.
require "json"

module Rubyrig
  module Commands
    class Why < Base
      BANNER = <<~TEXT
        Usage: rubyrig why RESULTS_DIR [options]

        For each decided difference of a finished run (those the Why section explains, else every
        faster, slower, higher or lower verdict of a primary metric or of peak RSS), reruns its cell on
        both runtimes with one factor switched at a time, chosen from the factors the run measured:
        threads, processes or concurrency down to 1 (through the powers of two between), the kind's
        other settings (http: keepalive against close), +mn where the interpreter has it (CRuby 3.3+),
        pinned to one CPU against spread, a larger GC heap, YJIT off (or on), a %<mib>d MiB YJIT code
        region, +jemalloc. Each follow-up is an ordinary run in RESULTS_DIR/%<dir>s/. The answer gives
        the share of the gap each switch removes (1 - log ratio / log ratio of the run) with an
        interval that carries both runs' uncertainty, and says a switch closes the gap only when its
        follow-up shows no gap and the share is decided to be at least 50%%. Running it again resumes
        an interrupted follow-up and reuses the finished ones.

        The larger GC heap replaces every RUBY_GC_* variable of both runtimes with:
        %<gc>s

        Options:
      TEXT

      def call
        @budget_s = Ablation::DEFAULT_BUDGET_S
        command_line = ["rubyrig", "why", *@argv]
        rest = parse(parser)
        return CLI::EXIT_OK unless rest
        raise UsageError, "give one results directory, e.g. rubyrig why rubyrig-results/20250101-120000-nbody" unless rest.size == 1
        store = Results::Store.open(rest.first)
        check_finished!(store)
        store.lock! # one `rubyrig why` at a time writes the run's follow-ups and its run.json
        answers = investigate(store, command_line)
        return CLI::EXIT_OK if answers.nil?
        store.update_meta { |m| m.with(ablations: Ablation.record(command_line, answers)) }
        show(store)
      rescue Interrupt
        err.puts("\n" + Printable.line("rubyrig: interrupted; the follow-ups measured so far are in #{rest&.first}/#{Ablation::DIR}/; " \
          "run `rubyrig why #{rest&.first}` again to continue"))
        CLI::EXIT_INTERRUPTED
      ensure
        store&.unlock
      end

      private

      def parser
        OptionParser.new do |opts|
          gc = Ablation::GC_ENV.map { |k, v| "  #{k}=#{v}" }.join("\n")
          opts.banner = format(BANNER, gc: gc, mib: Ablation::YJIT_MEM_MIB, dir: Ablation::DIR)
          opts.on("--budget DURATION", "time the follow-up runs may take, e.g. 90s, 10m or 1h30m; what does not fit is skipped " \
            "with the reason (default: #{Ablation::Plan.duration(Ablation::DEFAULT_BUDGET_S)})") { |d| @budget_s = budget(d) }
          opts.on("-b", "--batches N", Integer, "batches per cell of each follow-up (default: the run's batches per cell)") do |n|
            raise UsageError, "--batches must be at least 2 (a comparison needs 2 batches on each side), got #{n}" if n < 2
            @batches = n
          end
          export_options(opts)
        end
      end

      def budget(text)
        Experiment::Decision.duration_s(text) || raise(UsageError, "--budget must be a duration such as 90s, 10m or 1h30m, got '#{text}'")
      end

      def check_finished!(store)
        run = store.run
        return if run.finished_at
        raise UsageError, "#{store.dir} has not finished; complete it with `rubyrig run --resume #{store.dir}`, then ask why" unless run.merged?
      end

      # The answers, or nil (and a line saying so) when the run decided no difference.
      def investigate(store, command_line)
        reading = store.read_trials
        report = Analysis.new.analyze(meta: store.meta, trials: reading.trials, skipped: reading.skipped)
        summary = JSON.parse(Reporters::Json.new(report).render)
        investigation = Ablation::Investigation.new(store: store, summary: summary, kinds: Kinds, progress: progress,
          runner_for: ->(experiment, raw) { runner(experiment, raw) }, budget_s: @budget_s, batches: @batches, command_line: command_line)
        if investigation.differences.empty?
          out.puts(Printable.line("rubyrig why: #{store.dir} decided no difference (no faster, slower, higher or lower verdict), so there is nothing to explain"))
          return nil
        end
        investigation.call
      end

      def progress = Progress.new(io: err, tty: @settings.tty)

      # The answers at the terminal; the run's summary.json, report.md and report.html again, with them.
      def show(store)
        reading = store.read_trials
        report = Analysis.new.analyze(meta: store.meta, trials: reading.trials, skipped: reading.skipped)
        answers = report.sections.select { |s| s.name == "why_ablations" }
        out.print(Reporters::Terminal.new(Analysis::Report.new(**report.to_h, cells: [], sections: answers, warnings: []), color: @settings.color).render)
        written = export(report, store)
        out.puts(Printable.line("Results: #{store.dir} (#{written.map { |p| File.basename(p) }.uniq.join(", ")}; the follow-ups in #{Ablation::DIR}/)"))
        CLI::EXIT_OK
      end
    end
  end
end
