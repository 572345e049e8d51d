# Renders a report for people at a terminal, in hyperfine's spirit: per workload and parameters, the
# primary metric and memory for each runtime, the ratio to the baseline with the interval decided on, the
# corrected p-value, the verdict and what would decide an inconclusive one; then the other sections, the
# numbers of the HTML report's pictures as tables, and warnings. Colour only when asked for (never when
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
        lines.concat(HttpSection.new(@report.http).terminal { |text, color| paint(text, color) })
        lines.concat(gem_sets) << "" unless @report.gem_sets.to_a.empty?
        @report.sweeps.each { |table| lines.concat(scaling_table(table)) << "" }
        lines.concat(yjit_memory(@report.yjit_memory)) << "" unless @report.yjit_memory.empty?
        FigureTables.new(@report).all.each { |t| lines.concat(figure_table(t)) << "" }
        @report.profiles.each { |group| lines.concat(profiles(group)) << "" }
        traces = trace_files
        lines.concat(traces) << "" unless traces.empty?
        lines.concat(warnings)
        lines.map { |line| Printable.line(line, keep_sgr: @color) }.join("\n") + "\n"
      end

      private

      def group(workload, params, cells)
        primary = @report.table_metric(workload, cells)
        definition = Metrics.fetch(primary)
        direction = definition.higher_is_better ? "higher is better" : "lower is better"
        title = [workload, Format.params(params)].reject(&:empty?).join(" · ")
        method = Format.method_line(comparisons(cells, primary), @report.baseline)
        out = [paint(title, :bold), "  #{definition.label} (#{direction})#{"; #{method}" if method}"]
        out.concat(table(cells, primary))
        comparisons(cells, primary).select(&:reason).each do |c|
          out << "    #{c.runtime}: #{paint(c.verdict, VERDICT_COLORS.fetch(c.verdict, :dim))}: #{c.reason}"
        end
        comparisons(cells, primary).select(&:hosts).each do |c|
          per_host = c.hosts.map { |h| "#{h.host} #{Format.host_ratio(h)} (n=#{h.n}/#{h.baseline_n})" }.join(" · ")
          out << "    #{c.runtime} by host: #{per_host}; #{Format.heterogeneity(c.heterogeneity)}"
        end
        Metrics.headline(primary).each do |metric|
          next unless cells.any? { |c| @report.summary(c.key, metric) }
          out << "  #{Metrics.fetch(metric).label}"
          out.concat(table(cells, metric))
        end
        out
      end

      def gem_sets
        lines = ["#{paint("Gem sets", :bold)} (each runtime's own, installed by its bundler)"]
        @report.gem_sets.each do |g|
          gems = g.gems_text.empty? ? "" : "#{g.gems_text}; "
          lines << "    #{g.runtime} · #{Format.gemfile(g.gemfile)}: #{gems}#{g.lockfile_text}"
        end
        lines
      end

      def comparisons(cells, metric)
        cells.filter_map { |cell| @report.comparison(cell.runtime, cell.workload, cell.params, metric) }
      end

      def table(cells, metric)
        unit = Metrics.fetch(metric).unit
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

      def scaling_table(table)
        unit = Metrics.fetch(table.metric).unit
        fixed = Format.params(table.fixed)
        title = "Sweep over #{table.param} · #{table.workload}#{" · #{fixed}" unless fixed.empty?}"
        header = [table.param] + table.runtimes
        rows = table.rows.map do |row|
          [row.value.to_s] + table.runtimes.map do |runtime|
            point = row.cells[runtime]
            next "n/a" unless point.median
            ratio = point.ratio ? " #{Format.ratio(point.ratio)} #{Format.ci(point.ci)} #{paint(point.verdict, VERDICT_COLORS.fetch(point.verdict, :dim))}" : ""
            "#{Format.value(point.median, unit)}#{ratio}"
          end
        end
        [paint(title, :bold), "  #{Metrics.fetch(table.metric).label}; ratio to #{table.param}=#{table.rows.first.value} of the same runtime, interval and verdict"] +
          align([header] + rows).map { |line| "    #{line}".rstrip }
      end

      def yjit_memory(rows)
        header = ["yjit-mem", "workload", "speed", "peak RSS", "code region", "YJIT alloc"]
        body = rows.map do |r|
          ["#{r.yjit_mem} MiB", [r.workload, Format.params(r.params)].reject(&:empty?).join(" "),
            Format.value(r.speed, Metrics.fetch(r.metric).unit), Format.bytes(r.peak_rss_bytes),
            Format.bytes(r.code_region_bytes), Format.bytes(r.yjit_alloc_bytes)]
        end
        [paint("YJIT memory against speed", :bold)] + align([header] + body).map { |line| "    #{line}".rstrip }
      end

      def figure_table(table)
        [paint(table.title, :bold)] + align([table.header] + table.rows).map { |line| "    #{line}".rstrip }
      end

      def profiles(group)
        title = [group.workload, Format.params(group.params)].reject(&:empty?).join(" · ")
        profiler = group.profiles.values.first["profiler"]
        runtimes = group.profiles.keys
        depth = group.top.values.map(&:size).max
        rows = (0...depth).map do |i|
          runtimes.map do |runtime|
            frame = group.top[runtime][i]
            frame ? "#{Format.percent(frame["self_share"]).rjust(6)} #{frame["name"][0, 40]}" : ""
          end
        end
        out = [paint("Profiles (#{profiler}, top frames by self time) · #{title}", :bold)]
        out.concat(align([runtimes] + rows).map { |line| "    #{line}".rstrip })
        group.growth.each do |runtime, frames|
          next if frames.empty?
          out << "  grew most from #{@report.baseline} to #{runtime} (share of samples, inclusive):"
          frames.each do |f|
            out << format("    %+6.1f pp  %5.1f%% -> %5.1f%%  %s", f["delta"] * 100, f["baseline_share"] * 100, f["share"] * 100, f["name"])
          end
        end
        out
      end

      def trace_files
        return [] if @report.traces.empty?
        out = [paint("GVL traces", :bold) + " (open each file at https://ui.perfetto.dev with \"Open trace file\")"]
        @report.traces.each { |t| t.files.each { |file| out << "    #{t.cell_key}: #{file}" } }
        out
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
