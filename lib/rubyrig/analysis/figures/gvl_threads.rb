# The GVL without Perfetto: for each traced batch that kept its threads' times (GvlSummary), every
# thread's seconds running, in GC, wanting the GVL and waiting, its total and the share of it spent
# wanting the GVL, with the trace files to open in Perfetto, on one axis of seconds per batch.
module Rubyrig
  class Analysis
    class Figures
      class GvlThreads < Builder
        PARTS = %w[running_s gc_s wants_gvl_s waiting_s].freeze

        Plot = Struct.new(:cell_key, :runtime, :workload, :params, :batch_id, :files, :processes, :omitted_threads, :axis,
          :threads, keyword_init: true)

        def figures
          @report.traces.sort_by { |t| position(cell_key: t.cell_key) }.filter_map do |trace|
            trial = @report.trials.find { |t| t.batch_id == trace.batch_id }
            summary = trial&.samples&.dig("gvl_threads")
            next unless summary
            threads = summary["threads"].map do |t|
              total = PARTS.sum { |part| t[part].to_f }
              t.merge("total_s" => total, "wants_gvl_share" => total.positive? ? t["wants_gvl_s"].to_f / total : nil)
            end
            Plot.new(cell_key: trace.cell_key, runtime: trial.runtime, workload: trial.workload, params: trial.params,
              batch_id: trace.batch_id, files: trace.files, processes: summary["processes"], omitted_threads: summary["omitted_threads"],
              axis: Axis.fit(threads.map { |t| t["total_s"] }, unit: "s", zero: true), threads: threads).freeze
          end
        end
      end
    end
  end
end
