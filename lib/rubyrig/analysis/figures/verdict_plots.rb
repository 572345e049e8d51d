# The verdict forest plots: one per metric (each workload's primary metric, then the headline metrics),
# a row per comparison with the baseline (ratio, interval, verdict, or the reason it was not
# compared), the equivalence band of ±margin around 1.0 and a log axis of ratios.
module Rubyrig
  class Analysis
    class Figures
      class VerdictPlots < Builder
        # confidences: the levels of the intervals drawn (one per family of comparisons), highest last.
        Plot = Struct.new(:metric, :label, :unit, :higher_is_better, :baseline, :margin, :confidences, :axis, :rows,
          keyword_init: true)
        Row = Struct.new(:runtime, :workload, :params, :ratio, :ci, :confidence, :p_adjusted, :verdict, :reason, :n,
          :baseline_n, keyword_init: true)

        def figures
          metrics = @report.cells.map { |c| @report.primary_metric(c.workload) }.uniq + Metrics::HEADLINE
          metrics.uniq.filter_map do |metric|
            comparisons = @report.comparisons.select { |c| c.metric == metric }
            next if comparisons.none?(&:ratio)
            plot(metric, comparisons)
          end
        end

        private

        def plot(metric, comparisons)
          definition = Metrics.fetch(metric)
          margin = comparisons.filter_map(&:margin).first || Experiment::Decision::DEFAULT_EQUIVALENCE
          rows = comparisons.map do |c|
            Row.new(runtime: c.runtime, workload: c.workload, params: c.params, ratio: c.ratio, ci: c.ci,
              confidence: c.confidence, p_adjusted: c.p_adjusted, verdict: c.verdict, reason: c.reason, n: c.n,
              baseline_n: c.baseline_n).freeze
          end
          shown = rows.flat_map { |r| [r.ratio, *r.ci] }.compact.select(&:positive?)
          axis = Axis.fit(shown + [1.0 - margin, 1.0 + margin], unit: "x", log: true)
          Plot.new(metric: metric, label: definition.label, unit: definition.unit, higher_is_better: definition.higher_is_better,
            baseline: @report.baseline, margin: margin, confidences: rows.filter_map(&:confidence).uniq.sort.freeze,
            axis: axis, rows: rows).freeze
        end
      end
    end
  end
end
