# Renders a report as CSV, one table for every section: a `section` column says what a row is (a cell's
# metric with its comparison, a connection mode, the Rails overhead, a sweep point, a YJIT memory
# setting, a profile frame, a GVL trace file, a latency percentile, a batch's errors, a grid cell, a
# jobs phase, a memory-against-speed point, a thread's GVL time, a runtime's gem set, a warning), and `detail` carries what
# the columns do not. Raw per-batch values stay in trials.jsonl.
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
          rows = cell_rows + host_rows + connection_mode_rows + rails_rows + sweep_rows + yjit_rows + profile_rows + trace_rows +
            latency_rows + batch_error_rows + grid_rows + jobs_rows + memory_speed_rows + gvl_rows + gem_set_rows + warning_rows
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

      # Each host's side of a comparison from a merged run, then whether the hosts agree.
      def host_rows
        @report.comparisons.select(&:hosts).flat_map do |c|
          common = {runtime: c.runtime, workload: c.workload, params: Format.params(c.params), metric: c.metric, unit: c.unit}
          hosts = c.hosts.map do |h|
            common.merge(section: "host", n: h.n, ratio: h.ratio, ci_low: h.ci&.first, ci_high: h.ci&.last,
              detail: "host #{h.host}; baseline n=#{h.baseline_n}#{"; #{h.reason}" unless h.used?}")
          end
          h = c.heterogeneity
          next hosts unless h
          hosts + [common.merge(section: "heterogeneity", p_value: h.p_value, p_adjusted: h.p_adjusted,
            verdict: h.disagree ? "hosts disagree" : "hosts agree", detail: Format.heterogeneity(h))]
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

      def gem_set_rows
        @report.gem_sets.to_a.map do |g|
          {section: "gem_set", runtime: g.runtime, workload: Format.gemfile(g.gemfile), detail: [g.gems_text, g.lockfile_text].reject(&:empty?).join("; ")}
        end
      end

      def figures = @report.figures

      def latency_rows
        figures.latency.flat_map do |plot|
          plot.series.flat_map do |s|
            cell = @report.cells.find { |c| c.key == s.cell_key }
            Analysis::Figures::LatencyCurves::PERCENTILES.values.each_with_index.map do |metric, i|
              {section: "latency", runtime: s.runtime, workload: plot.workload, params: Format.params(cell.params), metric: metric,
               unit: "s", n: s.batches.size, median: s.medians[i], ci_low: s.median_cis[i]&.first, ci_high: s.median_cis[i]&.last}
            end
          end
        end
      end

      def batch_error_rows
        figures.http_errors.flat_map do |plot|
          plot.cells.flat_map do |c|
            c.batches.map do |b|
              {section: "batch_errors", runtime: c.runtime, workload: plot.workload, params: Format.params(c.params), metric: "error_count",
               median: b["error_count"], detail: "batch #{b["batch_id"]}, #{b["request_count"]} responses"}
            end
          end
        end
      end

      def grid_rows
        figures.grids.flat_map do |g|
          g.rows.each_with_index.flat_map do |row, i|
            g.columns.each_with_index.map do |column, j|
              {section: "grid", runtime: g.runtime, workload: g.workload,
               params: Format.params(g.fixed.merge(g.row_param => row, g.column_param => column)), metric: g.metric, unit: g.unit,
               n: g.n[i][j], median: g.medians[i][j]}
            end
          end
        end
      end

      def jobs_rows
        figures.jobs.flat_map do |plot|
          plot.runtimes.flat_map do |r|
            phases = r.phases.map { |name, (from, to)| ["#{name}_s", r.durations[name], format("median length; median start %.6f s, end %.6f s from the enqueue's start", from, to)] }
            done = r.finished_by.map { |q, t| ["finished_#{(q * 100).round}_percent_s", t, "after the gate opened"] }
            (phases + done).map do |metric, value, detail|
              {section: "jobs_timeline", runtime: r.runtime, workload: plot.workload, params: Format.params(plot.params), metric: metric,
               unit: "s", n: r.batches.size, median: value, detail: detail}
            end
          end
        end
      end

      def memory_speed_rows
        figures.memory_speed.flat_map do |plot|
          plot.points.flat_map do |p|
            [["peak_rss_bytes", "B", p.memory, p.memory_ci], [plot.metric, plot.unit, p.speed, p.speed_ci]].map do |metric, unit, value, ci|
              {section: "memory_speed", runtime: p.runtime, workload: plot.workload, params: Format.params(p.params), metric: metric,
               unit: unit, n: p.n, median: value, ci_low: ci&.first, ci_high: ci&.last, detail: p.yjit_mem && "yjit-mem=#{p.yjit_mem}"}
            end
          end
        end
      end

      def gvl_rows
        figures.gvl.flat_map do |plot|
          plot.threads.flat_map do |t|
            Analysis::Figures::GvlThreads::PARTS.map do |part|
              {section: "gvl_thread", runtime: plot.runtime, workload: plot.workload, params: Format.params(plot.params), metric: part,
               unit: "s", median: t[part], mean: t["wants_gvl_share"], detail: "batch #{plot.batch_id}, pid #{t["pid"]}, #{t["name"]}"}
            end
          end
        end
      end

      def contrast(c)
        return {} unless c
        {ratio: c.ratio, ci_low: c.ci&.first, ci_high: c.ci&.last, p_value: c.p_value, p_adjusted: c.p_adjusted}
      end
    end
  end
end
