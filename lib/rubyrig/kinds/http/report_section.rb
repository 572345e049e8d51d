# The HTTP section: per http cell its latency, errors, boot time, CPU and load generator; each
# connection mode against keepalive; the Rails overhead per request; and the numbers of the latency
# curves and the errors per batch.
module Rubyrig
  module Kinds
    module Http
      class ReportSection
        MODE_COLUMNS = [[:runtime, "runtime", "code"], [:workload, "workload", "text"], [:params, "params", "params"],
          [:mode, "mode", "text"], [:ratio, "ratio [interval]", "ratio"], [:p, "p", "p"], [:verdict, "verdict", "verdict"],
          [:reads_as, "reads as", "text"]].freeze
        LATENCY = LatencyCurves::PERCENTILES

        def self.section(report) = new(report).section

        def initialize(report)
          @report = report
          @http = report.http
        end

        def section
          figures = @report.figures
          tables = @http.empty? ? [] : [details, modes, rails]
          Analysis::Section.of(name: "http", title: "HTTP", data: {"http" => @http.to_h},
            tables: tables + figures.latency.map { |plot| latency(plot) } + figures.http_errors.map { |plot| errors(plot) })
        end

        private

        def details
          columns = [[:cell, "cell", "code"], [:n, "n", "count"], [:with_errors, "with errors", "count"], [:latency_p50_s, "p50", "s"], [:latency_p95_s, "p95", "s"], [:latency_p99_s, "p99", "s"],
            [:latency_p999_s, "p99.9", "s"], [:error_count, "errors", ""], [:boot_s, "boot", "s"],
            [:server_cpu_fraction, "server CPU", "fraction"], [:load_cpu_fraction, "load CPU", "fraction"], [:measured_by, "measured by", "text"]]
          rows = @http.cells.map do |d|
            {cell: Analysis::Section.where(d.cell.runtime, d.cell.workload, d.cell.params), runtime: d.cell.runtime, workload: d.cell.workload,
             params: d.cell.params, n: d.n, with_errors: d.with_errors, measured_by: d.measured_by || d.load_generator || "n/a",
             detail: "measured by #{d.measured_by || d.load_generator || "n/a"}"}.merge(d.medians.transform_keys(&:to_sym))
          end
          Analysis::Section.table(name: "http_cell", title: "HTTP details", description: "medians over ok batches", columns: columns, rows: rows)
        end

        def modes
          list = @http.connection_modes
          return nil if list.empty?
          rows = list.map do |c|
            {runtime: c.runtime, workload: c.workload, params: c.params, mode: c.other, ratio: c, p: c, verdict: c,
             reads_as: reads_as(c), metric: c.metric, unit: c.unit, n: c.n, detail: "#{c.other} against #{c.reference}"}
          end
          Analysis::Section.table(name: "connection_mode", title: "Connection modes", columns: MODE_COLUMNS, rows: rows,
            description: "requests/s against #{Derived::REFERENCE_MODE}; #{Analysis::Section.method_line(list, Derived::REFERENCE_MODE)}",
            notes: reasons(list))
        end

        # Says the same result from the reference's side: "close slower" means "keepalive faster".
        def reads_as(c)
          case c.verdict
          when Analysis::Verdict::SLOWER then "#{c.reference} faster"
          when Analysis::Verdict::FASTER then "#{c.reference} slower"
          else ""
          end
        end

        def rails
          list = @http.rails_overhead
          return nil if list.empty?
          columns = [[:runtime, "runtime", "code"], [:params, "params", "params"], [:overhead_s, "overhead [interval]", "µs"],
            [:verdict, "Rails against Rack", "verdict"], [:rails_per_request_s, "Rails per request", "µs"],
            [:rack_per_request_s, "Rack per request", "µs"], [:batches, "n", "text"]]
          rows = list.map do |o|
            c = o.comparison
            {runtime: c.runtime, params: c.params, workload: c.other, verdict: c, batches: "#{c.n}/#{c.baseline_n}",
             overhead_s: Analysis::Section::Estimate.new(value: o.overhead_s, ci: o.ci), rails_per_request_s: o.rails_per_request_s,
             rack_per_request_s: o.rack_per_request_s, detail: "#{c.other} against #{c.reference}"}
          end
          comparisons = list.map(&:comparison)
          Analysis::Section.table(name: "rails_overhead", title: "Rails overhead per request", columns: columns, rows: rows, notes: reasons(comparisons),
            description: "1/rails - 1/rack requests/s (geometric means); the interval is the Rails app's requests/s ratio to its " \
              "Rack twin's, read per request: #{Analysis::Section.method_line(comparisons, "the Rack app")}")
        end

        def reasons(list)
          list.select(&:reason).map { |c| "#{Analysis::Section.where(c.runtime, c.workload, c.params)}: #{c.other} #{c.verdict}: #{c.reason}" }
        end

        def latency(plot)
          columns = [[:runtime, "runtime", "code"], [:n, "n", "count"]] +
            LATENCY.map { |p, metric| [metric.to_sym, "p#{p.to_s.delete_suffix(".0")}", "s"] } + [[:measured_by, "measured by", "text"]]
          rows = plot.series.map do |s|
            values = LATENCY.values.each_with_index.to_h { |m, i| [m.to_sym, Analysis::Section::Estimate.new(value: s.medians[i], ci: s.median_cis[i])] }
            {runtime: s.runtime, measured_by: s.measured_by.to_s, n: s.batches.size, workload: plot.workload, detail: s.measured_by,
             params: @report.cells.find { |c| c.key == s.cell_key }.params}.merge(values)
          end
          Analysis::Section.table(name: "latency", title: "Latency percentiles · #{Analysis::Section.where(plot.workload, plot.fixed)} (median over batches [95% CI])",
            columns: columns, rows: rows, figure: [:latency, plot])
        end

        def errors(plot)
          columns = [[:index, "#", "count"], [:runtime, "runtime", "code"], [:params, "params", "params"], [:errors, "errors", "text"],
            [:responses, "responses", "text"]]
          rows = plot.cells.each_with_index.map do |c, i|
            {index: i + 1, runtime: c.runtime, params: c.params, workload: plot.workload,
             errors: counts(c.batches, "error_count"), responses: counts(c.batches, "request_count")}
          end
          Analysis::Section.table(name: "batch_errors", title: "Errors per batch · #{plot.workload}", columns: columns, rows: rows,
            figure: [:http_errors, plot])
        end

        # Each batch's count, in order: "0, 3, n/a".
        def counts(batches, metric) = batches.map { |b| b[metric].nil? ? "n/a" : b[metric] }.join(", ")
      end
    end
  end
end
