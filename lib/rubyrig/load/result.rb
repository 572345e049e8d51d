# What one load-generator run measured, in seconds and counts: completed responses over the run's own
# measured duration, latency percentiles, errors by kind, and the generator's CPU use (wait4 rusage).
# An open-loop run also says the rate it was asked to offer, the rate at which it started requests, and
# whether it fell behind (then it did not offer the rate, and behind_reasons says why); latency_synthesized_count counts the samples
# the generator added to its latency histogram itself (wrk's coordinated-omission correction).
module Rubyrig
  module Load
    Result = Struct.new(:requests, :duration_s, :bytes, :errors, :latency_s, :cpu_s, :wall_s,
      :offered_rate_per_s, :achieved_rate_per_s, :behind, :behind_reasons, :latency_synthesized_count, :timeouts_unanswered, keyword_init: true) do
      def error_count = errors.values.sum

      # Responses that completed with a status below 400: the only ones throughput counts.
      def good_responses = requests - errors.fetch("status", 0)

      def requests_per_s = duration_s.positive? ? good_responses / duration_s : 0.0

      # Errors per attempt: completed responses plus socket errors that never produced one, and timeouts
      # where the generator gave a request up (httperf; wrk counts a late response as completed too).
      def error_rate
        unanswered = timeouts_unanswered ? %w[connect read write timeout] : %w[connect read write]
        attempts = requests + errors.values_at(*unanswered).compact.sum
        attempts.positive? ? error_count.fdiv(attempts) : 0.0
      end

      # "connect 0, read 3, write 0, timeout 0, non-2xx/3xx 1"
      def error_summary
        errors.map { |kind, n| "#{(kind == "status") ? "non-2xx/3xx" : kind} #{n}" }.join(", ")
      end

      # Share of the CPUs the generator could use that it kept busy during its run.
      def cpu_fraction(usable_cpus)
        return nil unless wall_s&.positive? && usable_cpus.positive?
        cpu_s / (wall_s * usable_cpus)
      end
    end

    class Result
      # Kinds of error a generator reports: socket errors, timeouts, and responses with status >= 400.
      ERROR_KINDS = %w[connect read write timeout status].freeze
      LATENCIES = %w[p50 p90 p95 p99 p999 max mean].freeze

      # A generator's summary in the JSON shape every adapter writes (wrk's own fields, microseconds:
      # requests, duration_us, bytes, errors_KIND, latency_KIND_us; an open loop's offered_rate_per_s,
      # achieved_rate_per_s, behind and behind_reasons; latency_synthesized_count; timeouts_unanswered) and the
      # generator's CPU use.
      def self.from_summary(data, cpu_s:, wall_s:)
        us = ->(key) { data[key]&./(1e6) }
        new(
          requests: data.fetch("requests").to_i,
          duration_s: data.fetch("duration_us") / 1e6,
          bytes: data["bytes"]&.to_i,
          errors: ERROR_KINDS.to_h { |kind| [kind, data.fetch("errors_#{kind}").to_i] },
          latency_s: LATENCIES.to_h { |k| [k, us.call("latency_#{k}_us")] },
          cpu_s: cpu_s,
          wall_s: wall_s,
          **%w[offered_rate_per_s achieved_rate_per_s behind behind_reasons latency_synthesized_count timeouts_unanswered].to_h { |k| [k.to_sym, data[k]] }
        ).freeze
      end
    end
  end
end
