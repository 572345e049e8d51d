# `rubyrig history` at a terminal: per series its heading, each change point with its decided
# comparison and the two sides, each cut (a new host or interpreter build), the levels between, and
# with runs: true each point's median and interval. Colour only when asked for (never piped or with
# NO_COLOR); data is shown through Printable, so it cannot move the cursor.
module Rubyrig
  module History
    class Text
      COLORS = Reporters::Terminal::COLORS

      def initialize(report, color: false, runs: false)
        @report = report
        @color = color
        @runs = runs
      end

      def render
        return "No series match: add runs with `rubyrig history add HISTORY DIR...` or widen the filters.\n" if @report.entries.empty?
        lines = @report.entries.flat_map { |entry| entry_lines(entry) + [""] }
        lines << footer
        lines.map { |line| Printable.line(line, keep_sgr: @color) }.join("\n") + "\n"
      end

      private

      def entry_lines(entry)
        direction = entry.higher_is_better ? "higher is better" : "lower is better"
        lines = [paint(Phrase.series(entry), :bold) + paint(" (#{direction}; #{Phrase.count(entry)}#{" by time" if entry.by == "time"})", :dim)]
        events(entry).each { |event| lines.concat(event) }
        lines << "  #{Phrase.none(entry)}" if entry.changes.empty?
        lines << "  levels: #{levels(entry)}" unless entry.levels.empty?
        lines.concat(table(entry)) if @runs
        lines
      end

      # Cuts and change points in the order of the series.
      def events(entry)
        cuts = entry.cuts.map { |c| [c.index, 0, ["  #{paint("|", :yellow)} #{Phrase.cut(entry, c)}"]] }
        changes = entry.changes.map do |c|
          color = Reporters::Terminal::VERDICT_COLORS.fetch(c.verdict, :dim)
          glyph = Reporters::Svg.verdict_style(c.verdict).glyph
          [c.index, 1, ["  #{paint("#{glyph} #{Phrase.change(entry, c)}", color)}", "      #{Phrase.sides(entry, c)}"]]
        end
        tested = entry.candidates.map do |c|
          [c.index, 2, ["  #{paint("#{Reporters::Svg.verdict_style(c.verdict).glyph} tested at #{Phrase.point(entry, c.index)}: #{Phrase.amount(c)}#{"; #{c.reason}" if c.reason}", :dim)}"]]
        end
        (cuts + changes + tested).sort_by { |index, order, _| [index, order] }.map(&:last)
      end

      def levels(entry)
        entry.levels.map do |l|
          span = (l.from == l.to) ? entry.marks[l.from].number.to_s : "#{entry.marks[l.from].number}–#{entry.marks[l.to].number}"
          "#{Reporters::Format.value(l.value, entry.unit)} (#{span})"
        end.join(" → ")
      end

      def table(entry)
        rows = entry.marks.map do |m|
          interval = m.interval ? "[#{Reporters::Format.value(m.interval[0], entry.unit)}, #{Reporters::Format.value(m.interval[1], entry.unit)}]" : ""
          interval += " range" if m.interval && m.interval_kind == "range"
          [m.number.to_s, m.label, m.host_id.to_s, m.revision.to_s[0, 7], m.version.to_s, m.values.size.to_s,
            Reporters::Format.value(m.median, entry.unit), interval]
        end
        head = ["#", label_heading(entry), "host", "commit", "version", "n", "median", "interval"]
        widths = head.each_index.map { |i| ([head] + rows).map { |r| r[i].length }.max }
        ([head] + rows).map { |r| "    " + r.each_with_index.map { |cell, i| cell.ljust(widths[i]) }.join("  ").rstrip }
      end

      def label_heading(entry) = {"time" => "started (UTC)", "commit" => "commit", "version" => "version"}.fetch(entry.by)

      def footer
        "Change points: #{Phrase.method(@report)} (docs/history.md)."
      end

      def paint(text, color)
        return text unless @color
        "\e[#{COLORS.fetch(color)}m#{text}\e[0m"
      end
    end
  end
end
