# Drives httperf for the connection mode wrk cannot do, client-close: with --num-calls=1 httperf sends
# one HTTP/1.1 request per connection and closes the connection itself once the response is in, so
# the client, not the server, ends every connection. One httperf process opens one connection at a
# time (no --rate: the next starts when the last one closed), so `connections` processes, pinned to
# the load CPUs, keep that many connections busy in a closed loop, as wrk's connections do. They start
# together: each is spawned as `flock --shared --no-fork GATE httperf ...` while rubyrig holds GATE
# exclusively, and all exec httperf when it lets go, so that slow forks on a busy host do not stagger
# them. After duration_s each gets SIGINT, on which httperf prints its statistics; the runs are summed
# into the JSON shape wrk's script writes (<label>.json), each process's output kept in <label>-N.log.
# Latency is the connection's lifetime (connect, request, response, close) from httperf's histogram
# of 1 ms bins, interpolated within a bin; mean and max are httperf's exact figures.
require "json"
require "fileutils"
require "uri"

module Rubyrig
  module Load
    class Httperf
      MODES = %w[client-close].freeze
      INSTALL_HINT = "install it (Debian/Ubuntu: apt-get install httperf) or give its path with `httperf: /path/to/httperf`"
      # Beyond the request timeout, how long httperf may take to print its statistics after SIGINT.
      GRACE_S = 15
      BIN_S = 0.001
      PERCENTILES = {"p50" => 50.0, "p90" => 90.0, "p99" => 99.0, "p999" => 99.9}.freeze

      # A run that produced no statistics: httperf could not start, crashed or hung.
      class RunFailed < Error; end

      def self.supports?(mode) = MODES.include?(mode)

      # The absolute path of httperf, or ToolMissing naming the fix; flock (util-linux) starts it.
      def self.locate(binary, path: ENV.fetch("PATH", ""))
        Processes::Which.find("flock", path: path) || raise(ToolMissing, "flock is not installed: install util-linux, whose flock starts httperf's processes together")
        Processes::Which.find(binary, path: path) || raise(ToolMissing, "#{binary} is not installed or not executable: #{INSTALL_HINT}")
      end

      # e.g. "httperf-0.9.0", for the run's provenance.
      def self.version(path)
        out, err, = Processes::Child.capture([path, "--version"], timeout_s: 10)
        (out + err)[/httperf-[\w.]+/] || (out + err).lines.last.to_s.strip
      end

      # One httperf output as a summary in wrk's JSON shape (microseconds), plus its histogram.
      def self.summary(text)
        total = text.match(/^Total: connections (\d+) requests (\d+) replies (\d+) test-duration ([\d.]+) s/) ||
          raise(RunFailed, "httperf printed no statistics")
        conn = text.match(/^Connection time \[ms\]: min ([\d.]+) avg ([\d.]+) max ([\d.]+)/)
        status = text.match(/^Reply status: 1xx=(\d+) 2xx=(\d+) 3xx=(\d+) 4xx=(\d+) 5xx=(\d+)/)
        size = text[/^Reply size \[B\]:.*\(total ([\d.]+)\)/, 1].to_f
        errors = text.scan(/^Errors: (.*)$/).join(" ").scan(/([a-z-]+) (\d+)/).to_h { |k, v| [k, v.to_i] }
        replies = total[3].to_i
        {
          "requests" => replies, "duration_us" => total[4].to_f * 1e6, "bytes" => (replies * size).round,
          "errors_connect" => errors.values_at("connrefused", "fd-unavail", "addrunavail", "ftab-full").sum(&:to_i),
          "errors_read" => errors.values_at("connreset", "other").sum(&:to_i), "errors_write" => 0,
          "errors_timeout" => errors.values_at("client-timo", "socket-timo").sum(&:to_i),
          "errors_status" => status ? status[4].to_i + status[5].to_i : 0,
          "latency_mean_us" => (conn && replies.positive?) ? conn[2].to_f * 1e3 : nil,
          "latency_max_us" => (conn && replies.positive?) ? conn[3].to_f * 1e3 : nil,
          "histogram" => histogram(text)
        }
      end

      # {bin index (whole ms) => connections} from "Connection lifetime histogram (time in ms):".
      def self.histogram(text)
        block = text[/^Connection lifetime histogram \(time in ms\):\n(.*?)\n\n/m, 1].to_s
        block.scan(/^\s*([\d.]+)\s+(\d+)\s*$/).to_h { |ms, n| [ms.to_f.floor, n.to_i] }
      end

      # Several processes' summaries as one: counts summed, the mean duration, the mean latency weighted
      # by responses, the largest maximum, and percentiles of the merged histogram.
      def self.combine(summaries)
        requests = summaries.sum { |s| s["requests"] }
        data = {"requests" => requests, "duration_us" => summaries.sum { |s| s["duration_us"] } / summaries.size,
                "bytes" => summaries.sum { |s| s["bytes"] }, "process_durations_us" => summaries.map { |s| s["duration_us"] }}
        Result::ERROR_KINDS.each { |kind| data["errors_#{kind}"] = summaries.sum { |s| s["errors_#{kind}"] } }
        timed = summaries.select { |s| s["latency_mean_us"] }
        data["latency_mean_us"] = timed.sum { |s| s["latency_mean_us"] * s["requests"] } / requests if requests.positive? && timed.any?
        data["latency_max_us"] = timed.map { |s| s["latency_max_us"] }.max
        merged = summaries.map { |s| s["histogram"] }.reduce({}) { |a, h| a.merge(h) { |_, x, y| x + y } }
        PERCENTILES.each { |name, pct| data["latency_#{name}_us"] = percentile_us(merged, pct, data["latency_max_us"]) }
        data
      end

      # The pct percentile of a histogram of 1 ms bins, interpolated within its bin, never above max.
      def self.percentile_us(histogram, pct, max_us)
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

      attr_reader :connections

      def initialize(binary:, connections:, timeout_s:, cpus: nil)
        @binary = binary
        @connections = connections
        @timeout_s = timeout_s
        @cpus = cpus
      end

      def name = "httperf"

      # Processes the generator runs at once: one per connection.
      def threads = @connections

      def argv(url)
        uri = URI(url)
        [@binary, "--verbose", "--verbose", "--server", uri.host, "--port", uri.port, "--uri", uri.request_uri,
          "--num-conns", 2**31 - 1, "--num-calls", 1, "--timeout", @timeout_s].map(&:to_s)
      end

      # Runs `connections` httperf processes against url for duration_s, then stops them with SIGINT and
      # returns their summed Result. Stops every process in any case, so that Ctrl-C never leaves one.
      def run(url, duration_s:, dir:, label:)
        json = File.join(dir, "#{label}.json")
        FileUtils.rm_f(json)
        logs = Array.new(@connections) { |i| File.join(dir, "#{label}-#{i + 1}.log") }
        gate = File.join(dir, "#{label}.gate")
        children = []
        File.open(gate, File::CREAT | File::RDWR) do |lock|
          lock.flock(File::LOCK_EX)
          logs.each do |log|
            children << Processes::Child.spawn(["flock", "--shared", "--no-fork", gate, *argv(url)], env: Processes::InheritedEnv.withheld, cpus: @cpus,
              out: log, err: [:child, :out])
          end
        end
        sleep duration_s
        children.each { |c| c.signal_group("INT") }
        exits = children.zip(logs).map { |child, log| finished(child, log) }
        data = self.class.combine(logs.map { |log| summary_of(log) })
        File.write(json, JSON.generate(data))
        Result.from_summary(data, cpu_s: exits.sum { |e| e.cpu_user_s + e.cpu_sys_s }, wall_s: exits.map(&:wall_s).max)
      ensure
        children&.each(&:stop)
        FileUtils.rm_f(gate) if gate
      end

      private

      def finished(child, log)
        exit = child.wait(timeout_s: @timeout_s + GRACE_S)
        raise RunFailed, "httperf did not stop within #{@timeout_s + GRACE_S} s of SIGINT; see #{log}" unless exit
        raise RunFailed, "httperf #{exit.describe}#{Load.said(log)} (see #{log})" unless exit.success?
        exit
      end

      def summary_of(log)
        self.class.summary(Processes::TextFile.read(log))
      rescue RunFailed
        raise RunFailed, "httperf printed no statistics: #{Processes::TextFile.tail(log, chars: 200)} (see #{log})"
      end
    end
  end
end
