# Renders a report as CSV, one table for every section: a `section` column says what a row is (a cell's
# metric with its comparison, a host's side of it, then each section table's name: a connection mode, a
# sweep point, a latency percentile...; then the warnings), and `detail` carries what the columns do
# not. Raw per-batch values stay in trials.jsonl.
require "csv"

module Rubyrig
  module Reporters
    class Csv
      HEADER = %w[section runtime workload params metric unit n median mean sd cv p10 p90 min max
        ratio ci_low ci_high p_value p_adjusted verdict detail].freeze
      # Units of the section columns whose values are measured numbers.
      MEASURED = %w[s B 1/s fraction µs pp share].push("").freeze

      def initialize(report)
        @report = report
      end

      def render
        CSV.generate do |csv|
          csv << HEADER
          rows = cell_rows + host_rows + @report.shown_sections.flat_map(&:tables).flat_map { |t| table_rows(t) } + warning_rows
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
           min: s.min, max: s.max, verdict: verdict, detail: [c&.reason, measured_by(s)].compact.join("; ").then { |d| d.empty? ? nil : d }}.merge(contrast(c))
        end
      end

      # For an http latency figure, the load model that measured it and the samples its generator synthesized.
      def measured_by(summary)
        return nil unless summary.metric.start_with?("latency_")
        @report.http&.cells&.find { |d| d.cell.key == summary.cell_key }&.measured_by
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

      def warning_rows = @report.warnings.map { |w| {section: "warning", detail: w} }

      # A section table's rows (Analysis::Section): a row's own CSV columns (runtime, workload, params,
      # metric, unit, n, detail) and its comparison's, then one CSV row per number it holds (metric:
      # the column's key, `median` the value and its interval), or one row when it holds none.
      def table_rows(table)
        table.rows.flat_map do |row|
          reasons = table.columns.filter_map { |c| row[c.key].reason if c.unit == "verdict" && row[c.key].is_a?(Analysis::Comparison) }
          detail = [row[:detail] || detail(table, row), *reasons].compact.join("; ")
          common = {section: table.name, detail: detail.empty? ? nil : detail}
          HEADER.each { |h| common[h.to_sym] = plain(row[h.to_sym]) if row.key?(h.to_sym) }
          table.columns.each { |c| common.merge!(comparison(row[c.key], c.unit)) }
          measured = table.columns.select { |c| MEASURED.include?(c.unit) && !HEADER.include?(c.key.to_s) && !row[c.key].nil? }
          next [common] if measured.empty?
          measured.map { |c| common.merge(c.csv).merge(measure(c, row[c.key])) }
        end
      end

      def measure(column, value)
        unit = {"µs" => "s", "pp" => "fraction", "share" => "fraction"}.fetch(column.unit, column.unit)
        fields = {metric: column.csv[:metric] || column.key.to_s, unit: unit}
        case value
        when Analysis::Section::Estimate
          fields.merge(median: value.value, ci_low: value.ci&.first, ci_high: value.ci&.last).merge(comparison(value.comparison, "ratio"))
            .merge(comparison(value.comparison, "p")).merge(comparison(value.comparison, "verdict"))
        when Analysis::Section::Share then fields.merge(median: value.share, detail: value.name)
        else fields.merge(median: value)
        end
      end

      def comparison(c, unit)
        return {} unless c.is_a?(Analysis::Comparison)
        case unit
        when "ratio" then {ratio: c.ratio, ci_low: c.ci&.first, ci_high: c.ci&.last}
        when "p" then {p_value: c.p_value, p_adjusted: c.p_adjusted}
        when "verdict" then {verdict: c.verdict}
        else {}
        end
      end

      # The row's words that no CSV column holds: "mode close; reads as keepalive faster".
      def detail(table, row)
        words = table.columns.select { |c| %w[text code path].include?(c.unit) && !HEADER.include?(c.key.to_s) && !row[c.key].to_s.empty? }
        words.empty? ? nil : words.map { |c| "#{c.label} #{row[c.key]}" }.join("; ")
      end

      def plain(value) = value.is_a?(Hash) ? Format.params(value) : value

      def contrast(c)
        return {} unless c
        {ratio: c.ratio, ci_low: c.ci&.first, ci_high: c.ci&.last, p_value: c.p_value, p_adjusted: c.p_adjusted}
      end
    end
  end
end
