# Renders a report as JSON for machines: run metadata, per-cell summaries, comparisons, every
# section's data (Analysis::Section: HTTP, sweeps, YJIT memory, profiles, GVL traces, gem sets), the
# figures with their axes, and the warnings.
require "json"

module Rubyrig
  module Reporters
    class Json
      def initialize(report)
        @report = report
      end

      def render = JSON.pretty_generate(document) + "\n"

      def document
        run = @report.run
        {
          "format_version" => RESULTS_FORMAT_VERSION,
          "rubyrig_version" => VERSION,
          "run" => {
            "name" => run.name, "created_at" => run.created_at, "finished_at" => run.finished_at,
            "baseline" => run.baseline, "seed" => run.seed, "host" => run.host,
            "runtimes" => run.runtimes, "workloads" => run.to_h["workloads"], "command_line" => run.command_line,
            "hosts" => run.hosts, "shards" => run.shards, "missing_shards" => run.missing_shards
          },
          "batches" => {"total" => @report.trials.size, "failed" => @report.failed_trials.size},
          "primary_metrics" => @report.primary,
          "summaries" => @report.summaries.map { |s| stringify(s.to_h.except(:values, :hosts, :rounds)) },
          "comparisons" => @report.comparisons.map { |c| Analysis::Figures.plain(c) }
        }.merge(*@report.sections.map(&:data)).merge(
          "figures" => @report.figures.to_h.transform_keys(&:to_s),
          "warnings" => @report.warnings
        )
      end

      private

      def stringify(hash) = hash.transform_keys(&:to_s)
    end
  end
end
