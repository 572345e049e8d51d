# Renders a report as CSV: one row per cell and metric, with the summary and, for non-baseline cells,
# the comparison against the baseline. Raw per-batch values stay in trials.jsonl.
require "csv"

module Rubyrig
  module Reporters
    class Csv
      HEADER = %w[runtime workload params metric unit n median mean sd cv p10 p90 min max
        ratio ci_low ci_high p_value p_adjusted verdict].freeze

      def initialize(report)
        @report = report
      end

      def render
        CSV.generate do |csv|
          csv << HEADER
          @report.summaries.each do |s|
            c = @report.comparison(s.runtime, s.workload, s.params, s.metric)
            csv << [s.runtime, s.workload, Format.params(s.params), s.metric, s.unit, s.n, s.median, s.mean, s.sd,
              s.cv, s.p10, s.p90, s.min, s.max, c&.ratio, c&.ci&.first, c&.ci&.last, c&.p_value, c&.p_adjusted,
              if c
                c.verdict
              else
                ((s.runtime == @report.baseline) ? "baseline" : nil)
              end]
          end
        end
      end
    end
  end
end
