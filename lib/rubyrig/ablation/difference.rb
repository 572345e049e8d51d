# A decided difference of a finished run, read from its summary.json: the Why section's entries ("why")
# when the run has them, else every decided comparison of a workload's primary metric or of peak RSS.
# ratio, ci (at confidence, from a t on df), p_adjusted and verdict as the run decided them; factors: the measured
# factors the Why section named (empty without one); line: its sentence.
module Rubyrig
  module Ablation
    Difference = Struct.new(:cell, :workload, :params, :runtime, :reference, :metric, :ratio, :ci, :confidence, :p_adjusted, :df,
      :verdict, :factors, :line, keyword_init: true) do
      # The folder of its follow-up runs inside why/, e.g. "3.3.8-vs-system-mtime-threads-threads-4": one
      # per cell and pair of runtimes, shared by the differences of several metrics there.
      def slug
        text = [runtime, "vs", reference, workload.delete_prefix("builtin:"), *params.flat_map { |k, v| [k, v] }].join("-")
        text.gsub(/[^A-Za-z0-9._]+/, "-").gsub(/\A[-.]+|-+\z/, "")[0, 120]
      end

      # "3.3.8 against system · builtin:mtime-threads · threads=4 calls=5000 · iterations_per_s"
      def title = Analysis::Section.where("#{runtime} against #{reference}", workload, params, metric)

      def to_record = to_h.transform_keys(&:to_s)
    end

    class Difference
      DECIDED = %w[faster slower higher lower].freeze
      MEMORY_METRICS = %w[peak_rss_bytes].freeze

      # summary: summary.json as a Hash (string keys).
      def self.all(summary)
        why = summary["why"]
        return why.filter_map { |entry| from_why(entry, summary) } if why.is_a?(Array)
        primary = summary.fetch("primary_metrics", {})
        summary.fetch("comparisons", []).select do |c|
          DECIDED.include?(c["verdict"]) && c["other"].nil? && (c["metric"] == primary[c["workload"]] || MEMORY_METRICS.include?(c["metric"]))
        end.map { |c| from_comparison(c) }.sort_by { |d| MEMORY_METRICS.include?(d.metric) ? 1 : 0 }
      end

      def self.from_comparison(c, factors: [], line: nil)
        new(cell: cell_key(c), workload: c["workload"], params: c["params"] || {}, runtime: c["runtime"], reference: c["baseline"],
          metric: c["metric"], ratio: c["ratio"], ci: c["ci"], confidence: c["confidence"], p_adjusted: c["p_adjusted"], df: c["df"], verdict: c["verdict"], factors: factors.freeze, line: line).freeze
      end

      # A Why entry with the comparison it explains (for its parameters and interval); nil when the
      # summary holds no such comparison.
      def self.from_why(entry, summary)
        comparison = summary.fetch("comparisons", []).find do |c|
          c["runtime"] == entry["runtime"] && c["baseline"] == entry["reference"] && c["workload"] == entry["workload"] &&
            c["metric"] == entry["metric"] && (entry["cell"].nil? || cell_key(c) == entry["cell"])
        end
        comparison && from_comparison(comparison, factors: Array(entry["factors"]).map(&:to_s), line: entry["line"])
      end

      def self.cell_key(c) = Experiment::Cell.new(runtime: c["runtime"], workload: c["workload"], params: c["params"] || {}).key
    end
  end
end
