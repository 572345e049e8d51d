# Everything a reporter shows, computed once by Analysis#analyze: the run's metadata, cells and trials,
# per-cell summaries, comparisons with verdicts, the sections (HTTP, sweeps, YJIT memory, profiles,
# GVL traces, gem sets, warnings) and the figures (what each picture shows, with its axes). Reporters only
# format it; nothing here computes statistics.
module Rubyrig
  class Analysis
    Report = Struct.new(:run, :cells, :trials, :primary, :summaries, :comparisons, :http, :sweeps,
      :yjit_memory, :profiles, :traces, :warnings, :figures, :gem_sets, keyword_init: true) do
      def baseline = run.baseline

      # The workload's primary metric: the first of its candidates that its batches measured.
      def primary_metric(workload) = primary.fetch(workload) { run.workload(workload).primary_metrics.first }

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

      def failed_trials = trials.reject(&:ok?)

      def measured_trials = trials.select(&:measured?)
    end

    # The GVL timeline files of one traced batch, relative to the run directory.
    Trace = Struct.new(:cell_key, :batch_id, :files, keyword_init: true)
  end
end
