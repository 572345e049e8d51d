# The contract every report section keeps (hyperfine's exporters): a section yields its tables (and the
# pictures they give the numbers of) once, as plain values computed in analysis/, and each format
# renders any section the same way. A section has a name (its JSON key and HTML anchor), a title, its
# data (plain values for JSON) and its tables. A table has a name (the `section` of its CSV rows), a
# title, a description line, columns (key, label, unit) and rows (a Hash per row by column key; extra
# keys such as metric and unit fill CSV columns), notes after the rows, and the picture whose numbers
# it holds. A column's unit says how its values read:
#   a Metrics unit ("s", "B", "1/s", "fraction", ""), "µs" (seconds shown in µs) or "pp" (a change of a
#   fraction in percentage points): a number, or an Estimate (with its interval);
#   "count": an integer; "text": words; "code": a name (a runtime label) shown as code; "path": a file
#   relative to the run directory (a link in HTML); "params": a Hash of parameters; "share": a Share
#   (a profile frame's share of samples);
#   "ratio", "p", "verdict": a Comparison's ratio with its interval, corrected p-value and verdict word.
# A column's csv Hash names the CSV columns its numbers belong to when the row does not (in a table
# with a column per runtime, its runtime).
module Rubyrig
  class Analysis
    Section = Struct.new(:name, :title, :data, :tables, keyword_init: true) do
      def empty? = tables.empty?
    end

    class Section
      UNITS = %w[s B 1/s fraction µs pp count text code path params share ratio p verdict].push("").freeze

      Column = Struct.new(:key, :label, :unit, :csv, keyword_init: true)

      # figure: [kind, plot] (a kind of Figures::KINDS and one of its plots), or nil.
      Table = Struct.new(:name, :title, :description, :columns, :rows, :notes, :figure, keyword_init: true)

      # A value with its interval (nil without one) and, in a sweep, its Comparison with the first value.
      Estimate = Struct.new(:value, :ci, :comparison, keyword_init: true)

      # A profile frame's share of samples.
      Share = Struct.new(:share, :name, keyword_init: true)

      # data: {JSON key => plain values}, in the JSON report whether or not the section shows anything.
      def self.of(name:, title:, data:, tables:)
        new(name: name, title: title, data: data.freeze, tables: tables.compact.freeze).freeze
      end

      # columns: [[key, label, unit, csv], ...] (csv optional); rows: Hashes by key.
      def self.table(name:, title:, columns:, rows:, description: nil, notes: [], figure: nil)
        columns = columns.map do |key, label, unit, csv|
          raise ArgumentError, "unknown unit #{unit.inspect} of column #{key}" unless UNITS.include?(unit)
          Column.new(key: key, label: label, unit: unit, csv: (csv || {}).freeze).freeze
        end
        Table.new(name: name, title: title, description: description, columns: columns.freeze, rows: rows.map(&:freeze).freeze,
          notes: notes.freeze, figure: figure).freeze
      end

      # Parameters as text: {"threads" => 4, "n" => 1} => "threads=4 n=1".
      def self.params_text(hash) = hash.map { |k, v| "#{k}=#{v}" }.join(" ")

      # "ratio to system, 98.3% interval (Welch t on log values, Bonferroni over 3 comparisons),
      # equivalent within ±2%": how the comparisons of one table were decided; nil without any.
      def self.method_line(comparisons, baseline)
        decided = comparisons.find(&:confidence)
        return nil unless decided
        "ratio to #{baseline}, #{percent(decided.confidence)} interval (#{decided.method_name}), equivalent within ±#{percent(decided.margin)}"
      end

      # 0.95 => "95%", 0.9875 => "98.75%", 0.99375 => "99.38%", 0.02 => "2%".
      def self.percent(fraction) = "#{format("%.2f", fraction * 100).sub(/\.?0+\z/, "")}%"

      # "workload · threads=4": where a table's numbers come from.
      def self.where(*parts) = parts.map { |p| p.is_a?(Hash) ? params_text(p) : p.to_s }.reject(&:empty?).join(" · ")
    end
  end
end
