# Per-cell distributions of each workload's primary metric: for every workload and parameters, each
# runtime's batches as points (with their batch ids), the median and its 95% interval, on one axis
# that never goes below zero and turns logarithmic when the values span more than four times.
module Rubyrig
  class Analysis
    class Figures
      class Distributions < Builder
        Plot = Struct.new(:workload, :params, :metric, :label, :unit, :higher_is_better, :axis, :cells, keyword_init: true)
        Cell = Struct.new(:runtime, :cell_key, :n, :batch_ids, :values, :median, :median_ci, keyword_init: true)

        def figures
          @report.groups.filter_map do |workload, params, cells|
            metric = @report.table_metric(workload, cells)
            shown = cells.map { |cell| distribution(cell, metric) }
            next if shown.all? { |d| d.n.zero? }
            definition = Metrics.fetch(metric)
            Plot.new(workload: workload, params: params, metric: metric, label: definition.label, unit: definition.unit,
              higher_is_better: definition.higher_is_better, axis: Axis.fit(shown.flat_map(&:values), unit: definition.unit),
              cells: shown).freeze
          end
        end

        private

        def distribution(cell, metric)
          batches = trials(cell).select { |t| t.metrics[metric].is_a?(Numeric) }
          summary = @report.summary(cell.key, metric)
          Cell.new(runtime: cell.runtime, cell_key: cell.key, n: batches.size, batch_ids: batches.map(&:batch_id),
            values: batches.map { |t| t.metrics[metric].to_f }, median: summary&.median, median_ci: summary&.median_ci).freeze
        end
      end
    end
  end
end
