# The steady-state section (SteadyState): per workload, whether each cell's measured iterations still
# trend, with both trend statistics and their intervals, and per workload and parameters how many
# iterations and seconds each runtime's batches took to settle (warmup kept), with the warmup curves
# as a picture (up to MAX_PICTURES parameter sets per workload; every cell's numbers are in the JSON).
module Rubyrig
  class Analysis
    module Sections
      module SteadyState
        MAX_PICTURES = 8

        module_function

        def section(report)
          cells = report.steady_state.to_a
          return nil if cells.empty?
          tables = cells.group_by(&:workload).flat_map do |workload, list|
            [trend_table(workload, list)] + settle_tables(report, workload, list)
          end
          Section.of(name: "steady_state", title: "Steady state", data: {"steady_state" => cells.map { |c| Figures.plain(c) }}, tables: tables)
        end

        def trend_table(workload, list)
          columns = [[:runtime, "runtime", "code"], [:params, "params", "params"], [:batches, "batches", "count"],
            [:iterations, "measured iterations", "count"], [:slope, "first to last iteration", "text"],
            [:early, "first quarter to the rest", "text"], [:state, "steady?", "text"]]
          rows = list.map do |c|
            {runtime: c.runtime, params: c.params, workload: workload, batches: c.batches, iterations: c.iterations,
             slope: trend_text(c.slope), early: trend_text(c.early_shift), state: state(c)}
          end
          Section.table(name: "steady_trend", title: "Steady state of the measured iterations · #{workload}", columns: columns, rows: rows,
            description: "change of the iteration time over the measured window, mean over the batches [interval corrected over " \
              "every cell and both statistics]; trending when decided and #{Section.percent(Analysis::SteadyState::MIN_CHANGE)} or more")
        end

        def trend_text(trend)
          return "" unless trend
          format("%+.1f%% [%+.1f%%, %+.1f%%]", trend.change * 100, trend.ci[0] * 100, trend.ci[1] * 100)
        end

        def state(cell)
          return "not checked: #{cell.reason}" unless cell.checked
          return "no trend decided" unless cell.trending
          "trending: getting #{Analysis::SteadyState.direction(cell)}"
        end

        # One table per parameter set, with its picture, or one for the workload when it has many.
        def settle_tables(report, workload, list)
          groups = list.group_by(&:params)
          return [settle_table(workload, nil, list, nil)] if groups.size > MAX_PICTURES
          groups.map { |params, cells| settle_table(workload, params, cells, curves(report, workload, params, cells)) }
        end

        def curves(report, workload, params, cells)
          measured = report.measured_by_cell
          by_runtime = cells.to_h do |c|
            [c.runtime, measured.fetch(c.cell_key, []).filter_map { |t| Analysis::SteadyState.series(t) }]
          end
          Analysis::SteadyState::Curves.plot(workload, params, by_runtime)
        end

        def settle_table(workload, params, cells, plot)
          columns = [[:runtime, "runtime", "code"], [:params, "params", "params"], [:warmup, "warmup iterations", "count"],
            [:settled, "settled batches", "text"], [:iterations, "iterations to steady", "count"], [:seconds, "seconds to steady", "text"]]
          rows = cells.map do |c|
            s = c.settle
            {runtime: c.runtime, params: c.params, workload: workload, warmup: s.warmup_iterations&.round,
             settled: "#{s.reached} of #{s.batches}", iterations: s.iterations&.round, seconds: seconds_text(s)}
          end
          Section.table(name: "steady_settle", title: "Time to steady state · #{Section.where(workload, params || {})}", columns: columns, rows: rows,
            description: "per batch, the iterations (warmup kept) before the median of 3 neighbours stays within the band of its " \
              "last third; medians over the batches that settled [their range]", notes: late_notes(cells), figure: plot && [:warmup, plot])
        end

        def seconds_text(settle)
          return "too few iterations (#{Analysis::SteadyState::MIN_SERIES} a batch)" if settle.batches.zero?
          return "not reached" unless settle.seconds
          format("%.3g s [%.3g, %.3g]", settle.seconds, *settle.seconds_range)
        end

        # Cells that settled after their warmup ended: their measured iterations include some warmup.
        def late_notes(cells)
          cells.select { |c| c.settle.iterations && c.settle.warmup_iterations && c.settle.iterations > c.settle.warmup_iterations }.map do |c|
            format("%s settled after %d iterations but its warmup ended after %d: its measured iterations include warmup",
              c.runtime, c.settle.iterations.round, c.settle.warmup_iterations.round)
          end
        end
      end
    end
  end
end
