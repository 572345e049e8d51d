# The measured figure behind a factor, read from the run's summary.json for the cell of one difference:
# the GVL wait per second of wall on each runtime, or a decided comparison of the factor's metric
# ("CPU sys 2.100x [1.500, 2.900] on 3.3.8 against system"). Nothing when the run did not decide it.
module Rubyrig
  module Ablation
    class Evidence
      # Each factor's metrics, the first decided one is cited.
      METRICS = {
        "cpu_user" => %w[cpu_user_s], "cpu_sys" => %w[cpu_sys_s],
        "context_switches" => %w[voluntary_ctx_switches involuntary_ctx_switches],
        "gc" => %w[gc_time_s gc_count], "jit" => %w[yjit_compile_time_s], "yjit_code_region" => %w[yjit_code_region_bytes],
        "malloc" => %w[peak_rss_bytes], "ruby_heap" => %w[peak_rss_bytes]
      }.freeze
      LABELS = {"gvl" => "GVL wait", "jit" => "JIT compilation", "yjit_code_region" => "YJIT's code region",
                "ruby_heap" => "the Ruby heap", "malloc" => "malloc", "context_switches" => "context switches",
                "cpu_user" => "CPU user", "cpu_sys" => "CPU sys", "gc" => "GC"}.freeze
      # Below this GVL wait per second of wall, threads hardly wait.
      GVL_SHOWN = 0.05

      def self.label(factor) = LABELS.fetch(factor, factor)

      # "0.122x [0.097, 0.153]"
      def self.ratio(ratio, ci) = ci ? format("%.3fx [%.3f, %.3f]", ratio, *ci) : format("%.3fx", ratio)

      def initialize(summary, difference)
        @summary = summary
        @difference = difference
      end

      def for(factor) = (factor == "gvl") ? gvl : METRICS.fetch(factor, []).lazy.filter_map { |m| compared(m) }.first

      private

      def gvl
        shown = @difference.to_h.values_at(:runtime, :reference).filter_map do |label|
          median = median(label, "gvl_wait_fraction")
          format("%.2f s/s on %s", median, label) if median && median >= GVL_SHOWN
        end
        "GVL wait #{shown.join(", ")}" unless shown.empty?
      end

      def compared(metric)
        d = @difference
        c = @summary.fetch("comparisons", []).find do |x|
          x["runtime"] == d.runtime && x["baseline"] == d.reference && x["workload"] == d.workload && x["params"] == d.params && x["metric"] == metric
        end
        return unless c && Difference::DECIDED.include?(c["verdict"])
        "#{Metrics.fetch(metric).label} #{c["verdict"]}: #{self.class.ratio(c["ratio"], c["ci"])} on #{d.runtime} against #{d.reference}"
      end

      def median(label, metric)
        key = Experiment::Cell.new(runtime: label, workload: @difference.workload, params: @difference.params).key
        @summary.fetch("summaries", []).find { |s| s["cell_key"] == key && s["metric"] == metric }&.fetch("median", nil)
      end
    end
  end
end
