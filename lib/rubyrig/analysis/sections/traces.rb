# The GVL traces section: each traced batch's threads (time running, in GC, wanting the GVL and
# waiting, from its gvl-tracing files) and every trace file to open in Perfetto.
module Rubyrig
  class Analysis
    module Sections
      module Traces
        PARTS = {"running_s" => "running", "gc_s" => "GC", "wants_gvl_s" => "wanting GVL", "waiting_s" => "waiting"}.freeze

        module_function

        def section(report)
          files = report.traces.flat_map { |t| t.files.map { |f| {cell: t.cell_key, file: f, detail: "#{t.cell_key}: #{f}"} } }
          table = Section.table(name: "trace", title: "GVL traces", columns: [[:cell, "cell", "text"], [:file, "file", "path"]], rows: files,
            description: "open each file at https://ui.perfetto.dev with \"Open trace file\"")
          Section.of(name: "gvl", title: "GVL traces", data: {"traces" => report.traces.map { |t| Figures.plain(t) }},
            tables: report.figures.gvl.map { |plot| threads(plot) } + (files.empty? ? [] : [table]))
        end

        def threads(plot)
          columns = [[:pid, "pid", "text"], [:thread, "thread", "text"]] + PARTS.map { |k, label| [k, label, "s"] } +
            [["wants_gvl_share", "share wanting", "fraction"]]
          rows = plot.threads.map do |t|
            {pid: t["pid"].to_s, thread: t["name"].to_s, runtime: plot.runtime, workload: plot.workload, params: plot.params}
              .merge(t.slice(*PARTS.keys, "wants_gvl_share"))
          end
          Section.table(name: "gvl_thread", title: "GVL by thread · #{plot.cell_key} · batch #{plot.batch_id}", columns: columns, rows: rows,
            figure: [:gvl, plot])
        end
      end
    end
  end
end
