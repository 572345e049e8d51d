# What accounts for each decided difference (docs/why.md): for every faster/slower verdict of a
# workload's primary metric and every higher/lower verdict of peak RSS, the cost per unit of work split
# into measured components per runtime, each compared like a metric, with the share of the difference
# each additive one accounts for, the factors the data decide, the rest of the run as evidence and one
# line an app team reads. Pure functions on the report's comparisons and trials; no I/O.
module Rubyrig
  class Analysis
    module Why
      # An additive factor is named only when its change is at least this share of the measured change
      # and its share of the cost's difference at least MIN_COST_SHARE (Factors has the whole rule).
      MIN_SHARE = 0.5
      MIN_COST_SHARE = 0.2
      # The memory metric whose decided differences are explained.
      MEMORY_METRIC = "peak_rss_bytes"

      module_function

      # report: a Report with its comparisons; measured: its ok measured trials by cell key.
      # Returns an Explanation per decided difference: speed first, each in the order of the comparisons.
      def of(report, measured)
        differences = report.comparisons.select { |c| difference?(report, c) }
        differences.sort_by.with_index { |c, i| [(c.metric == MEMORY_METRIC) ? 1 : 0, i] }.map do |comparison|
          Decomposition.new(report, measured).explain(comparison)
        end.freeze
      end

      # A decided runtime difference of the workload's primary metric, when it is a speed (a cost per unit
      # of work: not an http capacity, whose batch's CPU spans its whole search), or of peak RSS.
      def difference?(report, comparison)
        return false unless comparison.other.nil? && comparison.ratio && comparison.significant?
        return true if comparison.metric == MEMORY_METRIC
        comparison.metric == report.primary_metric(comparison.workload) && report.metric(comparison.metric).speed?
      end
    end
  end
end
