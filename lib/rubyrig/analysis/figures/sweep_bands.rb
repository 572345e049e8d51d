# Sweep lines: for each sweep table, every runtime's median of the primary metric at each swept value,
# with the 95% interval of that median as a band (absent below 6 batches), on a shared axis.
module Rubyrig
  class Analysis
    class Figures
      class SweepBands < Builder
        Plot = Struct.new(:workload, :param, :fixed, :metric, :label, :unit, :values, :axis, :series, keyword_init: true)
        Point = Struct.new(:value, :median, :median_ci, :n, keyword_init: true)

        def figures
          @report.sweeps.map do |table|
            series = table.runtimes.to_h do |runtime|
              [runtime, table.rows.map { |row| point(table, runtime, row) }]
            end
            shown = series.values.flatten.flat_map { |p| [p.median, *p.median_ci] }
            Plot.new(workload: table.workload, param: table.param, fixed: table.fixed, metric: table.metric,
              label: Metrics.fetch(table.metric).label, unit: unit(table.metric), values: table.rows.map(&:value),
              axis: Axis.fit(shown, unit: unit(table.metric)), series: series).freeze
          end
        end

        private

        def point(table, runtime, row)
          params = table.fixed.merge(table.param => row.value)
          cell = @report.cells.find { |c| c.runtime == runtime && c.workload == table.workload && c.params == params }
          summary = cell && @report.summary(cell.key, table.metric)
          Point.new(value: row.value, median: row.cells[runtime].median, median_ci: summary&.median_ci, n: row.cells[runtime].n).freeze
        end
      end
    end
  end
end
