# `rubyrig history HISTORY [options]`: the series of a history with their change points, in the
# format asked for (text, Markdown, JSON, HTML), the HTML timeline to a file, and the gate on a new
# regression. `rubyrig history add` is the History command's own; it hands everything else here.
module Rubyrig
  module Commands
    class HistoryShow < Base
      BANNER = <<~TEXT
        Usage: rubyrig history HISTORY [options]
               rubyrig history add HISTORY RUN_DIR...

        `add` keeps finished runs in the folder HISTORY (so does `rubyrig run --history HISTORY`). Without
        it: each series of runs with its change points, each decided by comparing the runs on either
        side; a new host or interpreter build cuts a series (docs/history.md).

        Options:
      TEXT

      def call
        options = {by: "time", workloads: [], metrics: [], runtimes: [], format: "text", html: nil, runs: false,
                   since: nil, alpha: History::Report::DEFAULT_ALPHA, seed: Analysis::ChangePoints::SEED, gate: []}
        parser = option_parser(options)
        rest = parse(parser)
        return CLI::EXIT_OK unless rest
        unless rest.size == 1
          out.puts(parser.help)
          return CLI::EXIT_USAGE
        end
        show(rest.first, options)
      end

      private

      def option_parser(o)
        OptionParser.new do |opts|
          opts.banner = BANNER
          opts.on("--by AXIS", "order each series by time, commit (runs of a revision pooled) or version (runtimes of a workload as one series) (default: time)") { |b| o[:by] = choice("--by", b, History::Report::ORDERS) }
          opts.on("--workload NAME", "only this workload (repeatable)") { |w| o[:workloads] << w }
          opts.on("--metric NAME", "this metric, or all (repeatable; default: each workload's primary metric)") { |m| o[:metrics] << m }
          opts.on("--runtime LABEL", "only this runtime (repeatable)") { |r| o[:runtimes] << r }
          opts.on("--since TIME", "only the runs started at or after TIME, e.g. 2026-12-01 (UTC; default: every run)") { |t| o[:since] = since(t) }
          opts.on("--format FORMAT", "text, markdown, json or html, on standard output (default: text)") { |f| o[:format] = choice("--format", f, History::Formats::NAMES) }
          opts.on("--html FILE", "also write the HTML page with a timeline per series to FILE") { |f| o[:html] = export_target("--html", f) }
          opts.on("--runs", "text: also list every point with its median and interval") { o[:runs] = true }
          opts.on("--alpha A", Float, "the change-point search's level (default: 0.05)") { |a| o[:alpha] = alpha(a) }
          opts.on("--seed N", Integer, "the permutation test's seed (default: #{Analysis::ChangePoints::SEED})") { |n| o[:seed] = n }
          opts.on("--fail-if regressed", "exit 3 when a series' last change point is a decided regression reaching the newest run") { |c| o[:gate] << History::Gate.parse(c) }
        end
      end

      def since(text)
        raise ArgumentError unless text.match?(/\A\d{4}-\d\d-\d\d/)
        Time.parse(text.match?(/[zZ]|[+-]\d\d:?\d\d\z/) ? text : "#{text} UTC")
      rescue ArgumentError
        raise UsageError, "--since needs a date or time such as 2026-12-01 or 2026-12-01T10:00, got '#{text}'"
      end

      def alpha(value)
        return value if value.positive? && value < 0.5
        raise UsageError, "--alpha must be above 0 and below 0.5, e.g. 0.05, got #{value}"
      end

      def show(path, o)
        raise UsageError, "#{path} is not a folder; give the history's folder (made by `rubyrig history add` or `rubyrig run --history`)" unless File.directory?(path)
        series = History::Formats.since(select(History::Store.new(path).series, o), o[:since])
        report = History::Report.build(series, by: o[:by], alpha: o[:alpha], seed: o[:seed])
        out.print(History::Formats.render(report, o[:format], color: @settings.color, runs: o[:runs]))
        File.write(o[:html], History::Html.new(report).render) if o[:html]
        failures = History::Gate.failures(report, o[:gate])
        summary(report, failures, o[:gate])
        failures.each { |line| err.puts(Printable.line("rubyrig: #{line}")) }
        failures.empty? ? CLI::EXIT_OK : CLI::EXIT_GATE
      end

      def select(series, o)
        filters = {workloads: o[:workloads], metrics: o[:metrics], runtimes: o[:runtimes]}
        flag, given, known = History::Formats.unknown(series, **filters)
        if flag
          raise UsageError, "no series in the history has #{flag} #{given}; #{Suggest.hint(given, known, fallback: "the history has #{known.join(", ")}")}"
        end
        History::Formats.select(series, **filters)
      end

      # In a GitHub Actions step, the Markdown summary (and the gate's result) goes to the job summary.
      def summary(report, failures, gate)
        return unless step_summary_path
        text = History::Markdown.new(report).render
        text += "\n**rubyrig history --fail-if regressed**: #{failures.empty? ? "passed" : "failed"}\n\n#{failures.map { |l| "- #{Reporters::MarkdownText.text(l)}" }.join("\n")}\n" unless gate.empty?
        append_step_summary(text)
      end
    end
  end
end
