# The Endpoints section of a report: for each http cell with traffic, the server's own figures (Puma's
# request log, docs/traffic.md) for all its requests and then per endpoint: share of the requests,
# count, errors, service time p50 and p99 (medians over ok batches), the queueing mean for the whole
# batch, and each endpoint's p99 service time against the baseline runtime with its interval and verdict.
module Rubyrig
  module Kinds
    module Http
      class EndpointsSection
        ENDPOINT = /\Aendpoint\.(.+)\.request_count\z/
        COLUMNS = [[:runtime, "runtime", "code"], [:params, "params", "params"], [:endpoint, "endpoint", "text"],
          [:share, "share", "fraction"], [:request_count, "requests", ""], [:error_count, "errors", ""],
          [:service_p50_s, "service p50", "s"], [:service_p99_s, "service p99", "s"], [:queueing_mean_s, "queueing mean", "s"],
          [:ratio, "p99 ratio [interval]", "ratio"], [:verdict, "p99 verdict", "verdict"]].freeze
        ALL = "(all)"

        def self.section(report) = new(report).section

        def initialize(report)
          @report = report
        end

        def section
          tables = @report.cells.map(&:workload).uniq.filter_map { |workload| table(workload) }
          return nil if tables.empty?
          Analysis::Section.of(name: "endpoints", title: "Endpoints", data: {}, tables: tables)
        end

        private

        def table(workload)
          cells = @report.cells.select { |c| c.workload == workload }
          rows = cells.flat_map { |cell| rows(cell) }
          return nil if rows.empty?
          Analysis::Section.table(name: "endpoints", title: "Endpoints · #{workload} (the server's own figures, medians over ok batches)",
            columns: COLUMNS, rows: rows,
            description: "from Puma's request log in the measured run (a capacity search's: the capacity step's); queueing = the client's mean latency - the server's mean service time; " \
              "the client's latency per endpoint is not measured; each endpoint's p99 interval is corrected over the runtimes, " \
              "not over the #{rows.count { |r| r[:endpoint] != ALL } / [cells.size, 1].max} endpoints (docs/traffic.md)")
        end

        def rows(cell)
          names = @report.summaries.select { |s| s.cell_key == cell.key }.filter_map { |s| s.metric[ENDPOINT, 1] }
          return [] if names.empty?
          [row(cell, ALL, "")] + names.map { |name| row(cell, name, "endpoint.#{name}.") }
        end

        def row(cell, name, prefix)
          median = ->(metric) { @report.summary(cell.key, "#{prefix}#{metric}")&.median }
          comparison = @report.comparison(cell.runtime, cell.workload, cell.params, "#{prefix}service_p99_s")
          row = {runtime: cell.runtime, workload: cell.workload, params: cell.params, endpoint: name, detail: "endpoint #{name}",
                 service_p50_s: median.call("service_p50_s"), service_p99_s: median.call("service_p99_s"), ratio: comparison, verdict: comparison}
          if name == ALL
            row.merge(request_count: median.call("logged_request_count"), queueing_mean_s: median.call("queueing_mean_s"))
          else
            row.merge(share: median.call("share"), request_count: median.call("request_count"), error_count: median.call("error_count"))
          end
        end
      end
    end
  end
end
