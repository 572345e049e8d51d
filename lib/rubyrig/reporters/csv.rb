# Renders a report as CSV, one table for every section: a `section` column says what a row is (a cell's
# metric with its comparison, a connection mode, the Rails overhead, a sweep point, a YJIT memory
# setting, a profile frame, a GVL trace file, a warning), and `detail` carries what the columns do
# not. Raw per-batch values stay in trials.jsonl.
require "csv"

module Rubyrig
  module Reporters
    class Csv
      HEADER = %w[section runtime workload params metric unit n median mean sd cv p10 p90 min max
        ratio ci_low ci_high p_value p_adjusted verdict detail].freeze

      def initialize(report)
        @report = report
      end

      def render
        CSV.generate do |csv|
          csv << HEADER
          rows = cell_rows + connection_mode_rows + rails_rows + sweep_rows + yjit_rows + profile_rows + trace_rows + warning_rows
          rows.each { |row| csv << HEADER.map { |column| row[column.to_sym] } }
        end
      end

      private

      def cell_rows
        @report.summaries.map do |s|
          c = @report.comparison(s.runtime, s.workload, s.params, s.metric)
          verdict = c&.verdict || ((s.runtime == @report.baseline) ? "baseline" : nil)
          {section: "cell", runtime: s.runtime, workload: s.workload, params: Format.params(s.params), metric: s.metric,
           unit: s.unit, n: s.n, median: s.median, mean: s.mean, sd: s.sd, cv: s.cv, p10: s.p10, p90: s.p90,
           min: s.min, max: s.max, verdict: verdict, detail: c&.reason}.merge(contrast(c))
        end
      end

      def connection_mode_rows
        @report.http.connection_modes.map do |c|
          {section: "connection_mode", runtime: c.runtime, workload: c.workload, params: Format.params(c.params),
           metric: "requests_per_s", unit: "1/s", n: c.n, verdict: c.verdict,
           detail: "#{c.mode} against #{c.reference}#{"; #{c.reason}" if c.reason}"}.merge(contrast(c))
        end
      end

      def rails_rows
        @report.http.rails_overhead.map do |o|
          {section: "rails_overhead", runtime: o.runtime, workload: o.rails_workload, params: Format.params(o.params),
           metric: "rails_overhead_s", unit: "s", n: o.n, mean: o.overhead_s, ci_low: o.ci&.first, ci_high: o.ci&.last,
           detail: "Rails #{o.rails_per_request_s} s, Rack #{o.rack_per_request_s} s per request (#{o.rack_workload}, n=#{o.rack_n})"}
        end
      end

      def sweep_rows
        @report.sweeps.flat_map do |table|
          table.rows.flat_map do |row|
            table.runtimes.map do |runtime|
              point = row.cells[runtime]
              {section: "sweep", runtime: runtime, workload: table.workload,
               params: Format.params(table.fixed.merge(table.param => row.value)), metric: table.metric,
               unit: Metrics.fetch(table.metric).unit, n: point.n, median: point.median, ratio: point.ratio,
               ci_low: point.ci&.first, ci_high: point.ci&.last, p_adjusted: point.p_adjusted, verdict: point.verdict,
               detail: point.ratio ? "against #{table.param}=#{table.rows.first.value}" : point.reason}
            end
          end
        end
      end

      def yjit_rows
        @report.yjit_memory.flat_map do |r|
          {r.metric => r.speed, "peak_rss_bytes" => r.peak_rss_bytes, "yjit_code_region_bytes" => r.code_region_bytes,
           "yjit_alloc_bytes" => r.yjit_alloc_bytes}.map do |metric, value|
            {section: "yjit_memory", runtime: r.runtime, workload: r.workload, params: Format.params(r.params),
             metric: metric, unit: Metrics.fetch(metric).unit, median: value, detail: "yjit-mem=#{r.yjit_mem}"}
          end
        end
      end

      def profile_rows
        @report.profiles.flat_map do |g|
          top = g.top.flat_map do |runtime, frames|
            frames.map do |f|
              {section: "profile", runtime: runtime, workload: g.workload, params: Format.params(g.params),
               metric: "self_share", unit: "fraction", median: f["self_share"], detail: f["name"]}
            end
          end
          growth = g.growth.flat_map do |runtime, frames|
            frames.map do |f|
              {section: "profile_growth", runtime: runtime, workload: g.workload, params: Format.params(g.params),
               metric: "total_share", unit: "fraction", median: f["share"], mean: f["baseline_share"], detail: f["name"]}
            end
          end
          top + growth
        end
      end

      def trace_rows
        @report.traces.flat_map do |t|
          t.files.map { |file| {section: "trace", detail: "#{t.cell_key}: #{file}"} }
        end
      end

      def warning_rows = @report.warnings.map { |w| {section: "warning", detail: w} }

      def contrast(c)
        return {} unless c
        {ratio: c.ratio, ci_low: c.ci&.first, ci_high: c.ci&.last, p_value: c.p_value, p_adjusted: c.p_adjusted}
      end
    end
  end
end
