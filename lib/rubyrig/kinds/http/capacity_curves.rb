# The latency-against-offered-rate picture of capacity searches: for each http workload and parameters
# whose batches searched their capacity, per runtime every batch's steps (offered rate, the objective's
# latency percentile there, sustained or not), the median capacity with its 95% interval, and the
# objective's bound: where a runtime's latency turns up (the knee) and where it crosses the bound.
module Rubyrig
  module Kinds
    module Http
      class CapacityCurves < Analysis::Figures::Builder
        SAMPLE = "capacity"

        Plot = Struct.new(:workload, :fixed, :objective, :percentile, :bound_s, :x_axis, :y_axis, :series, keyword_init: true)
        # batches: [{"batch_id", "capacity_per_s", "points" => [[offered rate, latency, sustained], ...]}]
        Series = Struct.new(:runtime, :cell_key, :capacity_per_s, :capacity_ci, :n, :batches, keyword_init: true)

        def figures
          searched = @report.cells.select { |c| samples(c).any? }
          searched.group_by { |c| [c.workload, c.params] }.filter_map do |(workload, fixed), cells|
            first = samples(cells.first).first
            series = cells.map { |cell| series(cell, first["percentile"]) }
            points = series.flat_map { |s| s.batches.flat_map { |b| b["points"] } }
            latencies = points.map { |p| p[1] } + [first["bound_s"]]
            Plot.new(workload: workload, fixed: fixed, objective: first["objective"], percentile: first["percentile"],
              bound_s: first["bound_s"], x_axis: Analysis::Axis.fit(points.map(&:first), unit: "1/s"),
              y_axis: Analysis::Axis.fit(latencies, unit: "s"), series: series).freeze
          end
        end

        private

        # The capacity samples of a cell's ok measured batches, with their batch ids.
        def samples(cell) = trials(cell).filter_map { |t| t.samples.to_h[SAMPLE]&.merge("batch_id" => t.batch_id) }

        def series(cell, percentile)
          summary = @report.summary(cell.key, "capacity_per_s")
          batches = samples(cell).map do |sample|
            points = sample["steps"].filter_map do |step|
              latency = step["latency_#{percentile}_s"]
              [step["offered_rate_per_s"], latency, step["sustained"]] if latency&.positive?
            end
            {"batch_id" => sample["batch_id"], "capacity_per_s" => sample["capacity_per_s"], "points" => points.sort_by(&:first)}
          end
          Series.new(runtime: cell.runtime, cell_key: cell.key, capacity_per_s: summary&.median, capacity_ci: summary&.median_ci,
            n: summary&.n || 0, batches: batches).freeze
        end
      end
    end
  end
end
