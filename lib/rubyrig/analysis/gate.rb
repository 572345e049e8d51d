# The CI gate of --fail-if: which primary-metric comparisons of a finished report meet a failing
# condition (slower; slower by more than a share; inconclusive, which includes not compared), each as a
# line that says why. Pure: reads the report.
module Rubyrig
  class Analysis
    module Gate
      # kind: "slower" or "inconclusive"; threshold: for slower, the share it must be slower by (0.05).
      Condition = Struct.new(:kind, :threshold, :text, keyword_init: true)

      PATTERN = /\A(?:(?<slower>slower)(?::(?<pct>\d+(?:\.\d+)?)%)?|(?<inconclusive>inconclusive))\z/

      module_function

      def parse(text)
        m = PATTERN.match(text.to_s.strip)
        raise UsageError, "--fail-if takes slower, slower:PCT% (e.g. slower:5%) or inconclusive, got '#{text}'" unless m
        threshold = m[:pct] && Float(m[:pct]) / 100.0
        Condition.new(kind: m[:slower] || m[:inconclusive], threshold: threshold, text: text.to_s.strip).freeze
      end

      # Lines for every primary comparison that fails a condition; empty when the gate passes.
      def failures(report, conditions)
        primary = report.comparisons.select { |c| c.metric == report.primary_metric(c.workload) }
        primary.flat_map do |c|
          conditions.filter_map { |condition| "--fail-if #{condition.text}: #{describe(c)}" if fails?(condition, c) }
        end
      end

      def fails?(condition, c)
        case condition.kind
        when "slower"
          c.verdict == Verdict::SLOWER && (condition.threshold.nil? || slowdown(c) > condition.threshold)
        when "inconclusive"
          [Verdict::INCONCLUSIVE, Verdict::NOT_COMPARED].include?(c.verdict)
        end
      end

      # How much slower the estimate is, as a share: 0.25 for a quarter slower, whichever way is better.
      def slowdown(c)
        return 0.0 unless c.ratio&.positive?
        c.higher_is_better ? 1.0 / c.ratio - 1.0 : c.ratio - 1.0
      end

      def describe(c)
        params = c.params.map { |k, v| "#{k}=#{v}" }.join(",")
        where = [c.runtime, c.workload, (params unless params.empty?)].compact.join(" | ")
        interval = c.ci ? format(" [%.3f, %.3f]", *c.ci) : ""
        result = c.ratio ? format("%.3fx%s", c.ratio, interval) : "n/a"
        "#{where} is #{c.verdict} on #{Metrics.fetch(c.metric).label} against #{c.baseline} (#{result}#{"; #{c.reason}" if c.reason})"
      end
    end
  end
end
