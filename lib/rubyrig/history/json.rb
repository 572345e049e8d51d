# `rubyrig history --format json`: every series with its points (run ids, time, host, interpreter,
# revision, batch values, median and interval), cuts, decided change points and the candidates that
# were not, levels, and the sentence each format prints; times in ISO 8601 UTC, values in the metric's unit.
require "json"

module Rubyrig
  module History
    class Json
      FORMAT_VERSION = 1

      def initialize(report)
        @report = report
      end

      def render
        JSON.pretty_generate({
          "history_format_version" => FORMAT_VERSION, "by" => @report.by, "alpha" => @report.alpha, "seed" => @report.seed,
          "series" => @report.entries.map { |e| entry(e) }
        }) + "\n"
      end

      private

      def entry(e)
        {"workload" => e.workload, "params" => e.params, "runtime" => e.runtime, "metric" => e.metric, "unit" => e.unit,
         "higher_is_better" => e.higher_is_better, "method" => e.method, "unsearched" => e.unsearched, "points" => e.marks.map { |m| mark(m) },
         "cuts" => e.cuts.map { |c| {"index" => c.index, "reason" => c.reason, "from" => c.from, "to" => c.to, "text" => Phrase.cut(e, c)} },
         "change_points" => e.changes.map { |c| change(e, c).merge("text" => Phrase.change(e, c)) },
         "candidates" => e.candidates.map { |c| change(e, c).merge("reason" => c.reason) },
         "levels" => e.levels.map(&:to_h).map { |h| h.transform_keys(&:to_s) },
         "new_regression" => !e.new_regression.nil?}
      end

      def mark(m)
        {"number" => m.number, "label" => m.label, "run_ids" => m.run_ids, "started_at" => m.started_at.utc.iso8601,
         "host" => m.host_id, "host_fingerprint" => m.host, "interpreter" => m.interpreter, "build" => m.build, "version" => m.version, "revision" => m.revision,
         "values" => m.values, "median" => m.median, "interval" => m.interval, "interval_kind" => m.interval_kind}
      end

      def change(e, c)
        {"index" => c.index, "before" => [c.before.begin, c.before.end], "after" => [c.after.begin, c.after.end],
         "ratio" => c.ratio, "interval" => [c.low, c.high], "verdict" => c.verdict, "p_adjusted" => c.p_value,
         "regression" => c.regression, "amount" => Phrase.amount(c)}
      end
    end
  end
end
