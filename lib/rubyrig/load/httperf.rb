# Drives httperf for the connection mode wrk cannot do, client-close: with --num-calls=1 httperf sends
# one HTTP/1.1 request per connection and closes the connection itself once the response is in, so
# the client, not the server, ends every connection. One httperf process opens one connection at a
# time (no --rate: the next starts when the last one closed), so `connections` processes, pinned to
# the load CPUs, keep that many connections busy in a closed loop, as wrk's connections do. They start
# together and stop with SIGINT after duration_s (HttperfProcesses); their summaries are summed into
# the JSON shape wrk's script writes (<label>.json). Latency is the connection's lifetime (connect,
# request, response, close) from httperf's histogram (HttperfOutput).
require "json"
require "fileutils"
require "uri"

module Rubyrig
  module Load
    class Httperf
      MODES = %w[client-close].freeze
      INSTALL_HINT = "install it (Debian/Ubuntu: apt-get install httperf) or give its path with `httperf: /path/to/httperf`"

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

      # The JSON summary (also written to <label>.json) and the processes' CPU use as a Result. httperf
      # closes a connection that timed out: its request got no response and counts as an attempt.
      def self.result(data, outcome, dir, label)
        data = data.merge("timeouts_unanswered" => true)
        File.write(File.join(dir, "#{label}.json"), JSON.generate(data))
        Result.from_summary(data, cpu_s: outcome.cpu_s, wall_s: outcome.wall_s)
      end

      # httperf's --add-header arguments for `headers`: each "Name: value" ends with the escape \n, which
      # httperf turns into the line end; it reads any backslash as an escape, so each is doubled.
      def self.header_arguments(headers)
        headers.flat_map { |name, value| ["--add-header", "#{name}: #{value.gsub("\\") { "\\\\" }}\\n"] }
      end

      attr_reader :connections

      # headers: sent with every request ({name => value}).
      def initialize(binary:, connections:, timeout_s:, cpus: nil, headers: {})
        @binary = binary
        @connections = connections
        @timeout_s = timeout_s
        @cpus = cpus
        @headers = headers
      end

      def name = "httperf"

      # Processes the generator runs at once: one per connection.
      def threads = @connections

      def argv(url)
        uri = URI(url)
        [@binary, "--verbose", "--verbose", "--server", uri.host, "--port", uri.port, "--uri", uri.request_uri,
          "--num-conns", 2**31 - 1, "--num-calls", 1, *self.class.header_arguments(@headers), "--timeout", @timeout_s].map(&:to_s)
      end

      # Runs `connections` httperf processes against url for duration_s and returns their summed Result.
      def run(url, duration_s:, dir:, label:)
        FileUtils.rm_f(File.join(dir, "#{label}.json"))
        outcome = HttperfProcesses.new(Array.new(@connections) { argv(url) }, cpus: [@cpus] * @connections, timeout_s: @timeout_s)
          .run(duration_s: duration_s, dir: dir, label: label)
        self.class.result(HttperfOutput.combine(outcome.summaries), outcome, dir, label)
      end
    end
  end
end
