# `rubyrig history --format markdown`: a summary ready to paste into a bug report: per series one line
# with its change points (decided), cuts and levels, then a table of its points (median and interval).
# Data goes through Reporters::MarkdownText, so that a label cannot become markup.
module Rubyrig
  module History
    class Markdown
      def initialize(report)
        @report = report
      end

      def render
        lines = ["## rubyrig history (#{@report.entries.size} series by #{@report.by})", ""]
        lines << "No series match the filters." if @report.entries.empty?
        @report.entries.each { |entry| lines.concat(entry_lines(entry)) }
        lines << "_Change points: #{t(Phrase.method(@report))}._"
        lines.join("\n") + "\n"
      end

      private

      def t(text) = Reporters::MarkdownText.text(text)

      def entry_lines(entry)
        direction = entry.higher_is_better ? "higher is better" : "lower is better"
        lines = ["### #{t(Phrase.series(entry))}", "", "#{Phrase.count(entry)}, #{direction}.", ""]
        entry.cuts.each { |c| lines << "- #{t(Phrase.cut(entry, c))}" }
        entry.changes.each do |c|
          lines << "- **#{t(Phrase.series(entry))}: #{t(Phrase.amount(c))}** #{t(Phrase.change(entry, c).delete_prefix(Phrase.amount(c)).strip)}"
          lines << "  - #{t(Phrase.sides(entry, c))}"
        end
        entry.candidates.each { |c| lines << "- tested at #{t(Phrase.point(entry, c.index))}: #{t(Phrase.amount(c))}, not a change" }
        lines << "- #{t(Phrase.none(entry))}" if entry.changes.empty?
        lines << "" << table(entry) << ""
      end

      def table(entry)
        head = ["#", {"time" => "started (UTC)", "commit" => "commit", "version" => "version"}.fetch(entry.by), "host", "commit", "n", "median", "interval"]
        rows = entry.marks.map do |m|
          interval = m.interval ? t("[#{fmt(m.interval[0], entry)}, #{fmt(m.interval[1], entry)}]#{" range" if m.interval_kind == "range"}") : ""
          [m.number.to_s, t(m.label), t(m.host_id), m.revision ? Reporters::MarkdownText.code(m.revision.to_s[0, 7], table: true) : "",
            m.values.size.to_s, value(m.median, entry), interval]
        end
        (["| #{head.join(" | ")} |", "|#{"---|" * head.size}"] + rows.map { |r| "| #{r.join(" | ")} |" }).join("\n")
      end

      def value(number, entry) = t(fmt(number, entry))

      def fmt(number, entry) = Reporters::Format.value(number, entry.unit)
    end
  end
end
