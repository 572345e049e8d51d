# Everything a reporter shows, computed once by Analysis#analyze: the run's metadata, cells (items of a
# benchmark-ips file among them) and trials (the recorded ones, and one per item of a batch), per-cell
# summaries, comparisons with verdicts, the sections (HTTP, sweeps, YJIT memory, profiles, GVL traces,
# gem sets, warnings), whether measured iterations were steady (SteadyState), what accounts for each decided difference (why: Why::Explanation), the
# figures (what each picture shows, with its axes) and the sections as tables every format renders
# alike (Section). Reporters only format it; nothing here computes statistics.
module Rubyrig
  class Analysis
    Report = Struct.new(:run, :cells, :trials, :item_trials, :primary, :summaries, :comparisons, :http, :sweeps,
      :yjit_memory, :profiles, :traces, :warnings, :figures, :gem_sets, :why, :steady_state, :sections, keyword_init: true) do
      def baseline = run.baseline

      # The metric definitions the run recorded (Metrics::Catalogue), and one of them by name: what every
      # reporter reads a unit, a direction or a label from.
      def metrics = run.metrics

      def metric(name) = metrics.fetch(name)

      # The workload's primary metric: the first of its candidates that its batches measured.
      def primary_metric(workload) = primary.fetch(workload) { run.workload(workload).primary_metrics.first }

      # The metric a table of these cells leads with: the workload's primary metric, or for cells that
      # measured none of it (the whole process of a benchmark-ips file, whose items carry the
      # iterations) the first other candidate they did measure.
      def table_metric(workload, cells)
        primary = primary_metric(workload)
        return primary if cells.any? { |c| summary(c.key, primary) }
        run.workload(workload).primary_metrics.find { |m| cells.any? { |c| summary(c.key, m) } } || primary
      end

      # The ok measured trials of each cell by its key, items' trials included: what statistics count.
      def measured_by_cell = (trials + item_trials.to_a).select { |t| t.ok? && t.measured? }.group_by(&:cell_key)

      def summary(cell_key, metric) = summaries.find { |s| s.cell_key == cell_key && s.metric == metric }

      def comparison(runtime, workload, params, metric)
        comparisons.find do |c|
          c.runtime == runtime && c.workload == workload && c.params == params && c.metric == metric
        end
      end

      # Cells grouped by workload and parameters, baseline first within each group.
      def groups
        cells.group_by { |c| [c.workload, c.params] }.map do |(workload, params), group|
          [workload, params, group.sort_by { |c| (c.runtime == baseline) ? 0 : 1 }]
        end
      end

      # The sections with something to show, in the registry's order.
      def shown_sections = sections.to_a.reject(&:empty?)

      def failed_trials = trials.reject(&:ok?)

      def measured_trials = trials.select(&:measured?)
    end
  end
end
