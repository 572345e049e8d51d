# The picture of a ruby-bench suite run: one row per benchmark and runtime (its ratio to the baseline
# with the interval decided on, or why it did not run), grouped by category and sorted, largest ratio
# first, on a log axis with the equivalence band; drawn like the verdict forest plots.
module Rubyrig
  class Analysis
    class Figures
      class SuiteForest < Builder
        Plot = Struct.new(:workload, :metric, :label, :unit, :higher_is_better, :baseline, :margin, :confidences, :axis, :rows,
          keyword_init: true)

        def figures
          SuiteSummary.of(@report).map { |summary| plot(summary) }
        end

        private

        # Each row's workload is the benchmark's category, its params name the benchmark.
        def plot(summary)
          definition = Metrics.fetch(summary.metric)
          margin = @report.run.decision.equivalence
          rows = summary.rows.map do |r|
            c = r.comparisons[summary.metric]
            VerdictPlots::Row.new(runtime: r.runtime, workload: r.category, params: {summary.param => r.bench}, ratio: c&.ratio, ci: c&.ci,
              confidence: c&.confidence, p_adjusted: c&.p_adjusted, verdict: c&.verdict || Verdict::NOT_COMPARED,
              reason: r.not_run || c&.reason, n: c&.n, baseline_n: c&.baseline_n).freeze
          end
          shown = rows.flat_map { |r| [r.ratio, *r.ci] }.compact.select(&:positive?)
          Plot.new(workload: summary.workload, metric: summary.metric, label: definition.label, unit: definition.unit,
            higher_is_better: definition.higher_is_better, baseline: @report.baseline, margin: margin,
            confidences: rows.filter_map(&:confidence).uniq.sort.freeze, axis: Axis.fit(shown + [1.0 - margin, 1.0 + margin], unit: "x", log: true),
            rows: rows.freeze).freeze
        end
      end
    end
  end
end
