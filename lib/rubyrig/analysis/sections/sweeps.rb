# The sweeps section: per swept parameter the primary metric per runtime at each value (median with
# its 95% interval) and its Comparison with the same runtime's first value (Scaling), each with its
# picture; then the processes × threads (or concurrency) grids.
module Rubyrig
  class Analysis
    module Sections
      module Sweeps
        module_function

        def section(report)
          bands = report.figures.sweeps
          grids = report.figures.grids.group_by { |g| [g.workload, g.fixed] }.map { |_, plots| grid(plots) }
          data = report.sweeps.map do |t|
            Figures.plain(t.to_h.except(:rows)).merge("rows" => t.rows.map { |row| {"value" => row.value, "cells" => row.cells.transform_values { |p| Figures.plain(p.to_h) }} })
          end
          Section.of(name: "sweeps", title: "Sweeps", data: {"sweeps" => data},
            tables: report.sweeps.zip(bands).map { |t, plot| sweep(t, plot) } + grids)
        end

        def sweep(table, plot)
          unit = Metrics.fetch(table.metric).unit
          columns = [[:value, table.param, "text"]] + table.runtimes.map { |r| [r, r, unit, {runtime: r, metric: table.metric}] }
          rows = table.rows.each_with_index.map do |row, i|
            points = table.runtimes.to_h do |r|
              point = row.cells[r]
              [r, Section::Estimate.new(value: point.median, ci: plot.series[r][i].median_ci, comparison: point.comparison)]
            end
            {value: row.value.to_s, workload: table.workload, params: table.fixed.merge(table.param => row.value)}.merge(points)
          end
          Section.table(name: "sweep", title: "Sweep over #{table.param} · #{Section.where(table.workload, table.fixed)}", columns: columns,
            rows: rows, figure: [:sweeps, plot],
            description: "#{Metrics.fetch(table.metric).label}: median [95% CI of the median, from 6 batches on]; ratio to " \
              "#{table.param}=#{table.rows.first.value} of the same runtime with the interval decided on and the verdict")
        end

        # One workload's grids with the same other parameters: every runtime's cells in one table.
        def grid(plots)
          first = plots.first
          columns = [[:runtime, "runtime", "code"], [:row, first.row_param, "text"], [:column, first.column_param, "text"],
            [:median, "median", first.unit], [:n, "n", "count"]]
          rows = plots.flat_map do |g|
            g.rows.each_with_index.flat_map do |row, i|
              g.columns.each_with_index.map do |column, j|
                {runtime: g.runtime, row: row.to_s, column: column.to_s, median: g.medians[i][j], n: g.n[i][j], metric: g.metric, unit: g.unit,
                 workload: g.workload, params: g.fixed.merge(g.row_param => row, g.column_param => column)}
              end
            end
          end
          Section.table(name: "grid", title: "#{first.label} over #{first.row_param} × #{first.column_param} · " \
            "#{Section.where(first.workload, first.fixed)} (medians)", columns: columns, rows: rows, figure: [:grids, plots])
        end
      end
    end
  end
end
