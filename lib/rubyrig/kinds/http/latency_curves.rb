# HTTP latency percentile curves: for each HTTP workload and its parameters other than the connection
# mode, one curve per runtime and connection mode from p50 to p99.9 (median over batches with its 95%
# interval, and every batch's own curve), placed on a tail axis where each step is ten times rarer.
module Rubyrig
  module Kinds
    module Http
      class LatencyCurves < Analysis::Figures::Builder
        PERCENTILES = {50 => "latency_p50_s", 90 => "latency_p90_s", 99 => "latency_p99_s", 99.9 => "latency_p999_s"}.freeze

        Plot = Struct.new(:workload, :fixed, :percentiles, :positions, :axis, :series, keyword_init: true)
        # measured_by: the load model and the samples its generator synthesized (LatencyProvenance).
        Series = Struct.new(:runtime, :mode, :cell_key, :medians, :median_cis, :batches, :measured_by, keyword_init: true)

        def figures
          http = @report.cells.select { |c| @report.run.workload(c.workload).kind == Kind.kind }
          http.group_by { |c| [c.workload, c.params.except("connection")] }.filter_map do |(workload, fixed), cells|
            series = cells.map { |cell| series(cell) }.reject { |s| s.batches.empty? }
            next if series.empty?
            shown = series.flat_map { |s| s.batches.flat_map { |b| b["values"] } + s.median_cis.compact.flatten }
            Plot.new(workload: workload, fixed: fixed, percentiles: PERCENTILES.keys,
              positions: PERCENTILES.keys.map { |p| -Math.log10(1 - p / 100.0) }, axis: Analysis::Axis.fit(shown, unit: "s"),
              series: series).freeze
          end
        end

        private

        def series(cell)
          batches = trials(cell).select { |t| PERCENTILES.values.all? { |m| t.metrics[m].is_a?(Numeric) } }
          summaries = PERCENTILES.values.map { |m| @report.summary(cell.key, m) }
          Series.new(runtime: cell.runtime, mode: cell.effective["connection"], cell_key: cell.key, measured_by: LatencyProvenance.describe(batches),
            medians: summaries.map { |s| s&.median }, median_cis: summaries.map { |s| s&.median_ci },
            batches: batches.map { |t| {"batch_id" => t.batch_id, "values" => PERCENTILES.values.map { |m| t.metrics[m].to_f }} }).freeze
        end
      end
    end
  end
end
