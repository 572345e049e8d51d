# Renders a report as JSON for machines: run metadata, per-cell summaries, comparisons and warnings.
require "json"

module Rubyrig
  module Reporters
    class Json
      def initialize(report)
        @report = report
      end

      def render = JSON.pretty_generate(document) + "\n"

      def document
        meta = @report.meta
        {
          "format_version" => RESULTS_FORMAT_VERSION,
          "rubyrig_version" => VERSION,
          "run" => {
            "name" => meta["name"], "created_at" => meta["created_at"], "finished_at" => meta["finished_at"],
            "baseline" => meta["baseline"], "seed" => meta.dig("plan", "seed"), "host" => meta["host"],
            "runtimes" => meta["runtimes"], "workloads" => meta["workloads"], "command_line" => meta["command_line"]
          },
          "batches" => {"total" => @report.trials.size, "failed" => @report.failed_trials.size},
          "summaries" => @report.summaries.map { |s| stringify(s.to_h) },
          "comparisons" => @report.comparisons.map { |c| stringify(c.to_h) },
          "warnings" => @report.warnings
        }.merge(http)
      end

      private

      # Only runs with http workloads get the "http" section (per-cell details, connection modes, Rails overhead).
      def http
        derived = Analysis::HttpDerived.new.compute(@report)
        derived.empty? ? {} : {"http" => derived.to_h}
      end

      def stringify(hash) = hash.transform_keys(&:to_s)
    end
  end
end
