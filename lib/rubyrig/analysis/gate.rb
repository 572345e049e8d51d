# The CI gate of --fail-if: which comparisons of a finished report meet a failing condition (a primary
# metric slower; slower by more than a share; inconclusive, which includes not compared; a metric that
# appeared from zero, decided), each as a line that says why. Any gate also fails when an error count
# appeared or rose, decided: a runtime under which the app starts failing is never a pass. A metric seen
# on one side only but not decided (Appearance) fails nothing: errors in a few batches of both sides
# would otherwise fail A/A runs far more often than alpha. Pure: reads the report.
module Rubyrig
  class Analysis
    module Gate
      # kind: "slower", "inconclusive" or "appeared"; threshold: for slower, the share it must be slower
      # by (0.05); metric: for appeared, the metric named (nil: the error counts).
      Condition = Struct.new(:kind, :threshold, :metric, :text, keyword_init: true)

      PATTERN = /\A(?:(?<slower>slower)(?::(?<pct>\d+(?:\.\d+)?)%)?|(?<inconclusive>inconclusive)|(?<appeared>appeared)(?::(?<metric>\w+))?)\z/
      # The metrics whose appearance fails every gate: errors of any kind and failed checks.
      ERROR_METRICS = %w[error_count connect_error_count read_error_count write_error_count timeout_error_count
        non_2xx_3xx_count check_failure_count error_rate].freeze

      module_function

      def parse(text)
        m = PATTERN.match(text.to_s.strip)
        raise UsageError, "--fail-if takes slower, slower:PCT% (e.g. slower:5%), inconclusive or appeared[:METRIC], got '#{text}'" unless m
        threshold = m[:pct] && Float(m[:pct]) / 100.0
        Condition.new(kind: m[:slower] || m[:inconclusive] || m[:appeared], threshold: threshold, metric: m[:metric],
          text: text.to_s.strip).freeze
      end

      # Lines for every comparison that fails a condition; empty when the gate passes (or there is none).
      def failures(report, conditions)
        return [] if conditions.empty?
        primary = report.comparisons.select { |c| c.metric == report.primary_metric(c.workload) }
        slow = primary.flat_map do |c|
          conditions.filter_map { |condition| "--fail-if #{condition.text}: #{describe(c)}" if fails?(condition, c) }
        end
        slow + appeared(report, conditions)
      end

      # Metrics that appeared from zero (decided): the error counts under any gate, others when named; and
      # error counts that rose, decided, under any gate.
      def appeared(report, conditions)
        named = conditions.select { |c| c.kind == "appeared" && c.metric }.to_h { |c| [c.metric, c.text] }
        report.comparisons.filter_map do |c|
          errors = ERROR_METRICS.include?(c.metric)
          text = case c.verdict
          when Verdict::APPEARED then named[c.metric] || ("appeared (errors fail any gate)" if errors)
          when Verdict::HIGHER then "rose (errors fail any gate)" if errors
          end
          "--fail-if #{text}: #{describe(c)}" if text
        end
      end

      def fails?(condition, c)
        case condition.kind
        when "slower"
          c.verdict == Verdict::SLOWER && (condition.threshold.nil? || slowdown(c) > condition.threshold)
        when "inconclusive"
          [Verdict::INCONCLUSIVE, Verdict::NOT_COMPARED].include?(c.verdict)
        else false
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
        return "#{where}: #{Metrics.fetch(c.metric).label} #{c.verdict} against #{c.baseline} (#{c.reason})" if c.appearance
        interval = c.ci ? format(" [%.3f, %.3f]", *c.ci) : ""
        result = c.ratio ? format("%.3fx%s", c.ratio, interval) : "n/a"
        "#{where} is #{c.verdict} on #{Metrics.fetch(c.metric).label} against #{c.baseline} (#{result}#{"; #{c.reason}" if c.reason})"
      end
    end
  end
end
