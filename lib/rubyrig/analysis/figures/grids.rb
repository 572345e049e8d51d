# Heat maps of throughput over processes × threads (HTTP) or processes × concurrency (jobs): for each
# workload, runtime and other parameters with more than one combination, the median of the primary
# metric in each combination; runtimes of the same workload share one colour scale.
module Rubyrig
  class Analysis
    class Figures
      class Grids < Builder
        COLUMNS = {"http" => "threads", "jobs" => "concurrency"}.freeze
        ROWS = "processes"

        Plot = Struct.new(:workload, :runtime, :fixed, :metric, :label, :unit, :row_param, :column_param, :rows,
          :columns, :medians, :n, :scale, keyword_init: true)

        def figures
          candidates = @report.cells.group_by(&:workload).flat_map do |workload, cells|
            column = COLUMNS[@report.run.workload(workload).kind]
            next [] unless column && cells.all? { |c| c.effective.key?(ROWS) && c.effective.key?(column) }
            grids(workload, cells, column)
          end
          candidates.group_by { |g| [g.workload, g.fixed] }.flat_map do |_, same|
            scale = Axis.fit(same.flat_map { |g| g.medians.flatten }, unit: same.first.unit, zero: true)
            same.map { |g| Plot.new(**g.to_h.merge(scale: scale)).freeze }
          end
        end

        private

        def grids(workload, cells, column)
          metric = @report.primary_metric(workload)
          cells.group_by { |c| [c.runtime, c.effective.except(ROWS, column)] }.filter_map do |(runtime, fixed), group|
            combos = group.map { |c| [c.effective[ROWS], c.effective[column]] }.uniq
            next if combos.size < 2
            rows = combos.map(&:first).uniq.sort
            columns = combos.map(&:last).uniq.sort
            at = ->(r, k) { group.find { |c| c.effective[ROWS] == r && c.effective[column] == k } }
            medians = rows.map { |r| columns.map { |k| (cell = at.call(r, k)) && @report.summary(cell.key, metric)&.median } }
            counts = rows.map { |r| columns.map { |k| (cell = at.call(r, k)) ? trials(cell).size : 0 } }
            Plot.new(workload: workload, runtime: runtime, fixed: fixed, metric: metric, label: Metrics.fetch(metric).label,
              unit: unit(metric), row_param: ROWS, column_param: column, rows: rows, columns: columns, medians: medians, n: counts)
          end
        end
      end
    end
  end
end
