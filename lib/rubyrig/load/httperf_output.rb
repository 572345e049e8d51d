# Reads what httperf prints (--verbose --verbose) into the JSON shape wrk's script writes (microseconds),
# for both httperf adapters: the totals, errors by kind, and latency percentiles from its histogram of
# connection lifetimes (1 ms bins, interpolated within a bin; mean and max are httperf's exact figures).
module Rubyrig
  module Load
    module HttperfOutput
      BIN_S = 0.001
      PERCENTILES = {"p50" => 50.0, "p90" => 90.0, "p95" => 95.0, "p99" => 99.0, "p999" => 99.9}.freeze

      # Output without statistics: httperf could not start, crashed or hung.
      class Missing < Error; end

      module_function

      # One httperf output as a summary in wrk's JSON shape, plus its histogram and the connections it
      # opened ("connections", which excludes those it had no file descriptor for: "errors_fd_unavail").
      def summary(text)
        total = text.match(/^Total: connections (\d+) requests (\d+) replies (\d+) test-duration ([\d.]+) s/) ||
          raise(Missing, "httperf printed no statistics")
        errors = text.scan(/^Errors: (.*)$/).join(" ").scan(/([a-z-]+) (\d+)/).to_h { |k, v| [k, v.to_i] }
        replies = total[3].to_i
        {
          "requests" => replies, "duration_us" => total[4].to_f * 1e6, "connections" => total[1].to_i,
          "bytes" => (replies * text[/^Reply size \[B\]:.*\(total ([\d.]+)\)/, 1].to_f).round,
          "errors_fd_unavail" => errors["fd-unavail"].to_i,
          "histogram" => histogram(text)
        }.merge(errors_by_kind(text, errors), lifetimes(text, replies))
      end

      # httperf's errors sorted into wrk's kinds: connect, read, write, timeout, and status (>= 400).
      def errors_by_kind(text, errors)
        status = text.match(/^Reply status: 1xx=(\d+) 2xx=(\d+) 3xx=(\d+) 4xx=(\d+) 5xx=(\d+)/)
        {
          "errors_connect" => errors.values_at("connrefused", "fd-unavail", "addrunavail", "ftab-full").sum(&:to_i),
          "errors_read" => errors.values_at("connreset", "other").sum(&:to_i), "errors_write" => 0,
          "errors_timeout" => errors.values_at("client-timo", "socket-timo").sum(&:to_i),
          "errors_status" => status ? status[4].to_i + status[5].to_i : 0
        }
      end

      # httperf's exact mean and maximum connection lifetime, when some connection completed.
      def lifetimes(text, replies)
        conn = text.match(/^Connection time \[ms\]: min ([\d.]+) avg ([\d.]+) max ([\d.]+)/)
        return {"latency_mean_us" => nil, "latency_max_us" => nil} unless conn && replies.positive?
        {"latency_mean_us" => conn[2].to_f * 1e3, "latency_max_us" => conn[3].to_f * 1e3}
      end

      # {bin index (whole ms) => connections} from "Connection lifetime histogram (time in ms):".
      def histogram(text)
        block = text[/^Connection lifetime histogram \(time in ms\):\n(.*?)\n\n/m, 1].to_s
        block.scan(/^\s*([\d.]+)\s+(\d+)\s*$/).to_h { |ms, n| [ms.to_f.floor, n.to_i] }
      end

      # Several processes' summaries as one: counts summed, the mean duration, the mean latency weighted
      # by responses, the largest maximum, and percentiles of the merged histogram.
      def combine(summaries)
        requests = summaries.sum { |s| s["requests"] }
        data = {"requests" => requests, "duration_us" => summaries.sum { |s| s["duration_us"] } / summaries.size,
                "process_durations_us" => summaries.map { |s| s["duration_us"] }}
        %w[bytes connections errors_fd_unavail].each { |key| data[key] = summaries.sum { |s| s[key].to_i } }
        Result::ERROR_KINDS.each { |kind| data["errors_#{kind}"] = summaries.sum { |s| s["errors_#{kind}"] } }
        timed = summaries.select { |s| s["latency_mean_us"] }
        data["latency_mean_us"] = timed.sum { |s| s["latency_mean_us"] * s["requests"] } / requests if requests.positive? && timed.any?
        data["latency_max_us"] = timed.map { |s| s["latency_max_us"] }.max
        merged = summaries.map { |s| s["histogram"] }.reduce({}) { |a, h| a.merge(h) { |_, x, y| x + y } }
        PERCENTILES.each { |name, pct| data["latency_#{name}_us"] = percentile_us(merged, pct, data["latency_max_us"]) }
        data["latency_synthesized_count"] = 0
        data
      end

      # The pct percentile of a histogram of 1 ms bins, interpolated within its bin, never above max.
      def percentile_us(histogram, pct, max_us)
        total = histogram.values.sum
        return nil if total.zero?
        target = total * pct / 100.0
        seen = 0
        histogram.sort.each do |bin, count|
          if seen + count >= target
            value = (bin + (target - seen) / count) * BIN_S * 1e6
            return max_us ? [value, max_us].min : value
          end
          seen += count
        end
        max_us
      end
    end
  end
end
