# Renders a report for people at a terminal, in hyperfine's spirit: per workload and parameters, the
# primary metric and memory for each runtime, the ratio to the baseline with its 95% CI, the adjusted
# p-value and the verdict; then warnings. Colour only when asked for (never when piped or NO_COLOR).
module Rubyrig
  module Reporters
    class Terminal
      COLORS = {green: 32, red: 31, yellow: 33, dim: 2, bold: 1}.freeze
      VERDICT_COLORS = {"faster" => :green, "slower" => :red, "lower" => :green, "higher" => :yellow}.freeze

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
        lines.concat(HttpSection.new(@report).terminal { |text, color| paint(text, color) })
        lines.concat(warnings)
        lines.join("\n") + "\n"
      end

      private

      def group(workload, params, cells)
        primary = @report.primary_metric(workload)
        definition = Metrics.fetch(primary)
        direction = definition.higher_is_better ? "higher is better" : "lower is better"
        title = [workload, Format.params(params)].reject(&:empty?).join(" · ")
        out = [paint(title, :bold), "  #{definition.label} (#{direction})"]
        out.concat(table(cells, primary))
        (Metrics::HEADLINE - [primary]).each do |metric|
          next unless cells.any? { |c| @report.summary(c.key, metric) }
          out << "  #{Metrics.fetch(metric).label}"
          out.concat(table(cells, metric))
        end
        out
      end

      def table(cells, metric)
        unit = Metrics.fetch(metric).unit
        rows = cells.map do |cell|
          s = @report.summary(cell.key, metric)
          c = @report.comparison(cell.runtime, cell.workload, cell.params, metric)
          spread = s&.sd ? " ± #{Format.value(s.sd, unit)}" : ""
          [
            cell.runtime,
            "n=#{s&.n || 0}",
            s ? "#{Format.value(s.median, unit)}#{spread}" : "no ok batches",
            s&.cv ? "CV #{Format.percent(s.cv)}" : "",
            comparison_text(cell, c),
            c ? "p=#{Format.p_value(c.p_adjusted)}" : "",
            c ? paint(c.verdict, VERDICT_COLORS.fetch(c.verdict, :dim)) : ""
          ]
        end
        align(rows).map { |line| "    #{line}".rstrip }
      end

      def comparison_text(cell, comparison)
        return "baseline" if cell.runtime == @report.baseline
        return "" unless comparison
        "#{Format.ratio(comparison.ratio)} #{Format.ci(comparison.ci)}"
      end

      def warnings
        list = @report.warnings
        return [] if list.empty?
        [paint("Warnings:", :yellow)] + list.map { |w| "  - #{w}" }
      end

      def align(rows)
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
