# HTTP errors per batch: for each HTTP workload, every ok measured batch of every cell with its error
# count and completed responses, on a count axis from zero.
module Rubyrig
  module Kinds
    module Http
      class ErrorBars < Analysis::Figures::Builder
        Plot = Struct.new(:workload, :axis, :cells, keyword_init: true)
        Cell = Struct.new(:runtime, :params, :cell_key, :batches, keyword_init: true)

        def figures
          http = @report.cells.select { |c| @report.run.workload(c.workload).kind == Kind.kind }
          http.group_by(&:workload).filter_map do |workload, cells|
            shown = cells.map do |cell|
              batches = trials(cell).map do |t|
                {"batch_id" => t.batch_id, "error_count" => t.metrics["error_count"], "request_count" => t.metrics["request_count"]}
              end
              Cell.new(runtime: cell.runtime, params: cell.params, cell_key: cell.key, batches: batches).freeze
            end
            next if shown.all? { |c| c.batches.empty? }
            counts = shown.flat_map { |c| c.batches.map { |b| b["error_count"] } }
            Plot.new(workload: workload, axis: Analysis::Axis.fit(counts + [1], unit: "", zero: true, integer: true), cells: shown).freeze
          end
        end
      end
    end
  end
end
