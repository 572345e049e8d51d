# The items a batch measured apart (the `x.report` entries of a benchmark-ips file) as cells of their
# own: the parent cell's parameters plus item=NAME, with one trial per ok batch that carries the item's
# metrics, so that summaries, comparisons, verdicts, warnings and pictures treat an item like a
# parameter value. Every runtime of a workload and parameters gets every item seen there, so that an
# item missing on one runtime shows up as a cell without batches. Pure: no I/O.
module Rubyrig
  class Analysis
    module Items
      PARAM = "item"

      module_function

      # cells: the plan's cells; trials: every trial of the run. Returns [cells, item trials]: the
      # cells with each parent's item cells right after it, and the item trials.
      def expand(cells, trials)
        by_key = cells.to_h { |c| [c.key, c] }
        names = Hash.new { |h, k| h[k] = [] }
        trials.each do |t|
          cell = by_key[t.cell_key]
          next unless cell && t.ok? && t.measured?
          list = names[cell.comparable_key]
          t.items.to_a.each { |i| list << i["item"] unless list.include?(i["item"]) }
        end
        return [cells, []] if names.values.all?(&:empty?)
        item_cells = cells.to_h do |cell|
          [cell.key, names.fetch(cell.comparable_key, []).map { |name| item_cell(cell, name) }]
        end
        item_trials = trials.flat_map do |t|
          cell = by_key[t.cell_key]
          next [] unless cell && t.ok?
          t.items.to_a.map { |i| item_trial(t, item_cells.fetch(cell.key).find { |c| c.params[PARAM] == i["item"] }, i) }
        end
        [cells.flat_map { |c| [c, *item_cells.fetch(c.key)] }, item_trials]
      end

      def item_cell(cell, name)
        Experiment::Cell.new(index: cell.index, runtime: cell.runtime, workload: cell.workload, params: cell.params.merge(PARAM => name),
          effective_params: cell.effective.merge(PARAM => name)).freeze
      end

      def item_trial(trial, cell, item)
        Results::Trial.new(batch_id: trial.batch_id, cell_key: cell.key, runtime: trial.runtime, workload: trial.workload,
          params: cell.params, batch: trial.batch, round: trial.round, diagnostic: trial.diagnostic, status: trial.status,
          started_at: trial.started_at, finished_at: trial.finished_at, metrics: item["metrics"] || {},
          samples: item["samples"] || {}, facts: {}, artifacts: [], warnings: [], host_id: trial.host_id).freeze
      end
    end
  end
end
