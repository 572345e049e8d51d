# A latency objective (`slo: p99 < 50ms`): one latency percentile under a bound, together with the
# workload's max_error_rate. Parsed and checked here; a step of a capacity search meets it or says why not.
module Rubyrig
  module Kinds
    module Http
      Objective = Struct.new(:percentile, :bound_s, :inclusive, :max_error_rate, keyword_init: true) do
        # The http metric of the bounded percentile, e.g. "latency_p99_s".
        def metric = "latency_#{percentile}_s"

        # "p99 < 50 ms", as every format writes it.
        def to_s = "#{Objective::LABELS.fetch(percentile)} #{inclusive ? "<=" : "<"} #{Objective.duration_text(bound_s)}"

        # nil when a run with this latency (seconds by percentile name) and error rate meets the objective,
        # else why not: "p99 62 ms is not < 50 ms".
        def miss(latency_s, error_rate)
          if error_rate > max_error_rate
            return format("error rate %.2f%% is above max_error_rate %.2f%%", error_rate * 100, max_error_rate * 100)
          end
          value = latency_s[percentile]
          return "no #{Objective::LABELS.fetch(percentile)} was measured" unless value
          within = inclusive ? value <= bound_s : value < bound_s
          within ? nil : "#{Objective::LABELS.fetch(percentile)} #{Objective.duration_text(value)} is not #{to_s.split(" ", 2).last}"
        end
      end

      class Objective
        # The percentiles an objective may bound, by the name a load result gives them, as written.
        LABELS = {"p50" => "p50", "p90" => "p90", "p95" => "p95", "p99" => "p99", "p999" => "p99.9"}.freeze
        PATTERN = /\A\s*p(50|90|95|99|999|99\.9)\s*(<=?)\s*(\d+(?:\.\d+)?)\s*(ms|s)\s*\z/
        HINT = "write a percentile (p50, p90, p95, p99 or p999), < or <=, and a bound in ms or s, e.g. \"p99 < 50ms\""

        # The objective of `text` (e.g. "p99 < 50ms"), or nil with the reason it is not one.
        def self.parse(text, max_error_rate:)
          match = PATTERN.match(text.to_s) if text.is_a?(String)
          return [nil, "must be a latency objective; #{HINT}, got #{text.inspect}"] unless match
          bound_s = match[3].to_f * ((match[4] == "ms") ? 1e-3 : 1)
          return [nil, "must bound latency by more than 0, got #{text.inspect}; #{HINT}"] unless bound_s.positive?
          percentile = "p#{match[1].delete(".")}"
          [new(percentile: percentile, bound_s: bound_s, inclusive: match[2] == "<=", max_error_rate: max_error_rate).freeze, nil]
        end

        # The workload's `slo:` as an Objective (nil without one); a bad one fails with its line.
        def self.load(fields, max_error_rate:)
          return nil if fields["slo"].nil?
          objective, problem = parse(fields["slo"], max_error_rate: max_error_rate)
          fields.fail(["slo"], problem) if problem
          objective
        end

        # 0.05 => "50 ms", 1.5 => "1.5 s", 0.0125 => "12.5 ms": a bound as it reads best.
        def self.duration_text(seconds)
          value, unit = (seconds < 1) ? [seconds * 1e3, "ms"] : [seconds, "s"]
          "#{format("%.4g", value)} #{unit}"
        end
      end
    end
  end
end
