# The numbers of the report's pictures whose data no other table shows (latency curves, errors per
# batch, throughput grids, jobs timelines, memory against speed, GVL by thread) as plain tables of
# text, shared by the terminal, Markdown and HTML reporters so that every format prints the same.
module Rubyrig
  module Reporters
    class FigureTables
      # numeric: the indexes of the columns that hold numbers (right-aligned).
      Table = Struct.new(:kind, :title, :header, :rows, :numeric, keyword_init: true)

      def initialize(report)
        @report = report
        @figures = report.figures
      end

      def all = latency + http_errors + grids + jobs + memory_speed + gvl

      def latency
        @figures.latency.map do |plot|
          rows = plot.series.map do |s|
            [s.runtime, s.mode.to_s, s.batches.size.to_s] + s.medians.zip(s.median_cis).map { |m, ci| Format.with_interval(m, ci, "s") }
          end
          Table.new(kind: :latency, title: "Latency percentiles · #{where(plot.workload, plot.fixed)} (median over batches [95% CI])",
            header: ["runtime", "connection", "n"] + plot.percentiles.map { |p| "p#{p.to_s.delete_suffix(".0")}" }, rows: rows, numeric: [2, 3, 4, 5, 6])
        end
      end

      def http_errors
        @figures.http_errors.map do |plot|
          rows = plot.cells.each_with_index.map do |c, i|
            [(i + 1).to_s, c.runtime, Format.params(c.params), c.batches.map { |b| Format.significant(b["error_count"]) }.join(", "),
              c.batches.map { |b| Format.significant(b["request_count"]) }.join(", ")]
          end
          Table.new(kind: :http_errors, title: "Errors per batch · #{plot.workload}", header: ["#", "runtime", "params", "errors", "responses"], rows: rows, numeric: [0, 3, 4])
        end
      end

      def grids
        @figures.grids.group_by { |g| [g.workload, g.fixed] }.map do |(workload, fixed), plots|
          first = plots.first
          rows = plots.flat_map do |g|
            g.rows.each_with_index.flat_map do |row, i|
              g.columns.each_with_index.map { |column, j| [g.runtime, row.to_s, column.to_s, Format.value(g.medians[i][j], g.unit), g.n[i][j].to_s] }
            end
          end
          Table.new(kind: :grids, title: "#{first.label} over #{first.row_param} × #{first.column_param} · #{where(workload, fixed)} (medians)",
            header: ["runtime", first.row_param, first.column_param, "median", "n"], rows: rows, numeric: [1, 2, 3, 4])
        end
      end

      def jobs
        @figures.jobs.map do |plot|
          rows = plot.runtimes.map do |r|
            phases = r.durations.values.map { |t| Format.seconds(t) }
            [r.runtime, r.batches.size.to_s, *phases, *r.finished_by.values.map { |t| Format.seconds(t) }]
          end
          Table.new(kind: :jobs, title: "Jobs over time · #{where(plot.workload, plot.params)} (medians; done: time after the gate opened)",
            header: ["runtime", "n", "enqueue", "boot", "at the gate", "drain", "half done", "90% done", "all done"], rows: rows, numeric: (1..8).to_a)
        end
      end

      def memory_speed
        @figures.memory_speed.map do |plot|
          rows = plot.points.map do |p|
            [p.group.to_s, p.runtime, Format.params(p.params), p.yjit_mem ? "#{p.yjit_mem} MiB" : "", p.n.to_s,
              Format.with_interval(p.memory, p.memory_ci, "B"), Format.with_interval(p.speed, p.speed_ci, plot.unit)]
          end
          Table.new(kind: :memory_speed, title: "Memory against speed · #{plot.workload} (medians [95% CI of the median, from 6 batches on]; # numbers the parameter sets)",
            header: ["#", "runtime", "params", "yjit-mem", "n", "peak RSS", plot.label], rows: rows, numeric: [0, 3, 4, 5, 6])
        end
      end

      def gvl
        @figures.gvl.map do |plot|
          rows = plot.threads.map do |t|
            [t["pid"].to_s, t["name"], *%w[running_s gc_s wants_gvl_s waiting_s].map { |k| Format.seconds(t[k]) }, Format.percent(t["wants_gvl_share"])]
          end
          Table.new(kind: :gvl, title: "GVL by thread · #{plot.cell_key} · batch #{plot.batch_id}",
            header: ["pid", "thread", "running", "GC", "wanting GVL", "waiting", "share wanting"], rows: rows, numeric: [0, 2, 3, 4, 5, 6])
        end
      end

      private

      def where(workload, params) = [workload, Format.params(params)].reject(&:empty?).join(" · ")
    end
  end
end
