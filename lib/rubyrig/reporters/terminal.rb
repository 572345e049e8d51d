# Renders a report for people at a terminal, in hyperfine's spirit: per workload and parameters, the
# primary metric and memory for each runtime, the ratio to the baseline with the interval decided on, the
# corrected p-value, the verdict and what would decide an inconclusive one, the one-line answer of what
# accounts for each decided difference; then every section's tables
# (Analysis::Section), and warnings. Colour only when asked for (never when
# piped or NO_COLOR); control characters in data are shown as escapes (Printable).
module Rubyrig
  module Reporters
    class Terminal
      COLORS = {green: 32, red: 31, yellow: 33, blue: 34, dim: 2, bold: 1}.freeze
      v = Analysis::Verdict
      # Any other word (inconclusive, not compared) is dim.
      VERDICT_COLORS = {v::FASTER => :green, v::SLOWER => :red, v::LOWER => :green, v::HIGHER => :yellow, v::EQUIVALENT => :blue}.freeze

      def initialize(report, color: false)
        @report = report
        @color = color
      end

      def render
        lines = []
        @report.groups.each do |workload, params, cells|
          lines.concat(group(workload, params, cells))
          lines << ""
        end
        @report.shown_sections.flat_map(&:tables).each { |table| lines.concat(section_table(table)) << "" }
        lines.concat(warnings)
        lines.map { |line| Printable.line(line, keep_sgr: @color) }.join("\n") + "\n"
      end

      private

      def group(workload, params, cells)
        primary = @report.table_metric(workload, cells)
        definition = @report.metric(primary)
        direction = definition.higher_is_better ? "higher is better" : "lower is better"
        title = [workload, Format.params(params)].reject(&:empty?).join(" · ")
        method = Analysis::Section.method_line(comparisons(cells, primary), @report.baseline)
        out = [paint(title, :bold), "  #{definition.label} (#{direction})#{"; #{method}" if method}"]
        out.concat(table(cells, primary))
        comparisons(cells, primary).select(&:reason).each do |c|
          out << "    #{c.runtime}: #{paint(c.verdict, VERDICT_COLORS.fetch(c.verdict, :dim))}: #{c.reason}"
        end
        why(cells).each { |e| out << "    #{paint("why", :bold)}: #{e.line}" }
        comparisons(cells, primary).select(&:hosts).each do |c|
          per_host = c.hosts.map { |h| "#{h.host} #{Format.host_ratio(h)} (n=#{h.n}/#{h.baseline_n})" }.join(" · ")
          out << "    #{c.runtime} by host: #{per_host}; #{Format.heterogeneity(c.heterogeneity)}"
        end
        @report.metrics.headline(primary).each do |metric|
          next unless cells.any? { |c| @report.summary(c.key, metric) }
          out << "  #{@report.metric(metric).label}"
          out.concat(table(cells, metric))
        end
        out
      end

      # The one-line answer of each decided difference in these cells (Analysis::Why).
      def why(cells) = @report.why.to_a.select { |e| cells.any? { |c| c.key == e.cell } }

      def comparisons(cells, metric)
        cells.filter_map { |cell| @report.comparison(cell.runtime, cell.workload, cell.params, metric) }
      end

      def table(cells, metric)
        unit = @report.metric(metric).unit
        rows = cells.map do |cell|
          s = @report.summary(cell.key, metric)
          c = @report.comparison(cell.runtime, cell.workload, cell.params, metric)
          spread = s&.sd ? " ± #{Format.value(s.sd, unit)}" : ""
          missing = (@report.summaries.any? { |x| x.cell_key == cell.key }) ? "n/a" : "no ok batches"
          [
            cell.runtime,
            "n=#{s&.n || 0}",
            s ? "#{Format.value(s.median, unit)}#{spread}" : missing,
            s&.cv ? "CV #{Format.percent(s.cv)}" : "",
            comparison_text(cell, c),
            c ? "p=#{Format.p_value(c.p_adjusted)}" : "",
            c ? paint(c.verdict, VERDICT_COLORS.fetch(c.verdict, :dim)) : ""
          ]
        end
        align(rows).map { |line| "    #{line}".rstrip }
      end

      # Any section's table: its title (and description), the columns aligned, then its notes.
      def section_table(table)
        verdict = ->(word) { paint(word, VERDICT_COLORS.fetch(word, :dim)) }
        rows = table.rows.map { |row| table.columns.map { |c| Format.cell(row[c.key], c.unit, verdict: verdict) } }
        ["#{paint(table.title, :bold)}#{" (#{table.description})" if table.description}"] +
          align([table.columns.map(&:label)] + rows).map { |line| "    #{line}".rstrip } + table.notes.map { |note| "  #{note}" }
      end

      def comparison_text(cell, comparison)
        return "baseline" if cell.runtime == @report.baseline
        return "" unless comparison&.ratio
        "#{Format.ratio(comparison.ratio)} #{Format.ci(comparison.ci)}"
      end

      def warnings
        list = @report.warnings
        return [] if list.empty?
        [paint("Warnings:", :yellow)] + list.map { |w| "  - #{w}" }
      end

      def align(rows)
        rows = rows.map { |row| row.map { |v| Printable.line(v, keep_sgr: @color) } }
        widths = rows.transpose.map { |col| col.map { |v| visible_length(v) }.max }
        rows.map do |row|
          row.each_with_index.map { |v, i| v + " " * (widths[i] - visible_length(v)) }.join("  ")
        end
      end

      def visible_length(text) = text.gsub(/\e\[[0-9;]*m/, "").length

      def paint(text, color)
        return text unless @color
        "\e[#{COLORS.fetch(color)}m#{text}\e[0m"
      end
    end
  end
end
