# Run records into series: one per workload, parameters, runtime and metric, with one point per run
# (per host of a merged run), ordered by the run's start time. Pure: no I/O.
require "json"
require "time"

module Rubyrig
  module History
    module Collate
      module_function

      # records: run records (see RunRecord). Returns Array of Series, sorted by workload, parameters,
      # runtime and metric. The cells are put in time order once, so each series' points come in order.
      def series(records)
        cells = records.flat_map { |record| record["cells"].map { |cell| [record, cell, point_fields(record, cell)] } }
        groups = Hash.new { |hash, key| hash[key] = [] }
        cells.sort_by { |_, _, fields| [time(fields[:started_at]), fields[:run_id]] }.each do |record, cell, fields|
          key = [cell["workload"], canonical(cell["params"]), cell["runtime"]]
          cell["values"].each do |metric, values|
            next if values.empty?
            point = Point.new(**fields, values: values.map(&:to_f).freeze).freeze
            groups[key + [metric]] << [point, record, cell]
          end
        end
        groups.sort_by { |key, _| key.map(&:to_s) }.map { |key, list| build(key.last, list) }
      end

      # How many points a record adds: one per cell (and host) and metric with values.
      def points(record) = record["cells"].sum { |cell| cell["values"].count { |_, values| !values.empty? } }

      # list: [point, record, cell] in time order; the newest run's definition of the metric is the series'.
      def build(metric, list)
        _, record, cell = list.last
        definition = record["metrics"].fetch(metric, {})
        Series.new(workload: cell["workload"], params: cell["params"].freeze, runtime: cell["runtime"], metric: metric,
          unit: definition["unit"], higher_is_better: definition["higher_is_better"], kind: definition["kind"],
          primary: primary(record, cell) == metric, points: list.map(&:first).freeze).freeze
      end

      # Everything of a point but its values.
      def point_fields(record, cell)
        host = record["hosts"].fetch(cell["host"], {})
        runtime = record["runtimes"].fetch(cell["runtime"], {})
        revision = record.dig("workloads", cell["workload"], "revision") || {}
        {run_id: record["run_id"], started_at: host["started_at"] || record.dig("run", "created_at"),
         host: host["fingerprint"] || cell["host"], host_id: cell["host"], interpreter: cell["interpreter"],
         build: runtime["build"], version: runtime["version"], revision: revision["commit"], dirty: revision["dirty"]}
      end

      # The workload's primary metric in this run: the first of its candidates some cell measured.
      def primary(record, cell)
        candidates = record.dig("workloads", cell["workload"], "primary_metrics") || []
        measured = record["cells"].select { |c| c["workload"] == cell["workload"] }.flat_map { |c| c["values"].keys }
        candidates.find { |m| measured.include?(m) }
      end

      def canonical(params) = JSON.generate(params.sort.to_h)

      def time(text)
        Time.iso8601(text.to_s)
      rescue ArgumentError # a record without a start time sorts first
        Time.at(0)
      end
    end
  end
end
