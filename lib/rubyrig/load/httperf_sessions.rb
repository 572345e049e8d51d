# Drives httperf through sessions in a closed loop (traffic with `sessions:`, docs/traffic.md): each of
# `connections` processes is one simulated user at a time, running a session of its own --wsesslog file
# (one file per process, each starting at its own place) and, when it ends, the next (no --rate: a
# session starts when the last one is over), with --session-cookies as the user's cookie jar (httperf
# keeps one cookie per session) and the traffic's headers on every request (--add-header). A session's
# requests share one keep-alive connection, so the connection's lifetime is the session's, think times
# included: latency is httperf's mean reply time per request (response and transfer), and no
# percentiles are reported. The open loop (HttperfOpen) starts the same sessions at a rate.
require "fileutils"
require "uri"

module Rubyrig
  module Load
    class HttperfSessions
      # httperf stops after this many sessions; the run ends with SIGINT long before.
      SESSIONS = 1_000_000_000

      # A batch's --wsesslog files (one per process), the headers every request carries, and whether
      # each session is one request (then a connection's lifetime is that request's latency).
      Wsesslog = Struct.new(:files, :headers, :single_requests, keyword_init: true)

      # httperf's arguments that run `file`'s sessions with a cookie jar and `headers` on every request.
      def self.arguments(file, headers)
        ["--wsesslog", "#{SESSIONS},0,#{file}", "--session-cookies"] + Httperf.header_arguments(headers)
      end

      # The mean reply time (response and transfer) of one httperf output, in microseconds.
      def self.reply_mean_us(text)
        m = text.match(/^Reply time \[ms\]: response ([\d.]+) transfer ([\d.]+)/)
        m && (m[1].to_f + m[2].to_f) * 1e3
      end

      # Latency fields for sessions of several requests: the mean reply time weighted by replies, no
      # percentiles and no maximum (a connection's lifetime is a session's, no request's).
      def self.per_request_latency(logs, summaries)
        timed = logs.map { |log| reply_mean_us(Processes::TextFile.read(log)) }.zip(summaries.map { |s| s["requests"] })
          .select { |mean, n| mean && n.positive? }
        mean = timed.empty? ? nil : timed.sum { |m, n| m * n } / timed.sum(&:last)
        HttperfOutput::PERCENTILES.keys.to_h { |p| ["latency_#{p}_us", nil] }.merge("latency_mean_us" => mean, "latency_max_us" => nil)
      end

      attr_reader :connections

      # wsesslog: the batch's Wsesslog, one file per process.
      def initialize(binary:, wsesslog:, timeout_s:, cpus: nil)
        @binary = binary
        @wsesslog = wsesslog
        @connections = wsesslog.files.size
        @timeout_s = timeout_s
        @cpus = cpus
      end

      def name = "httperf"

      def threads = @connections

      def argv(url, file)
        uri = URI(url)
        [@binary, "--verbose", "--verbose", "--server", uri.host, "--port", uri.port, *self.class.arguments(file, @wsesslog.headers),
          "--timeout", @timeout_s].map(&:to_s)
      end

      # Runs one httperf process per file against url for duration_s and returns their summed Result.
      def run(url, duration_s:, dir:, label:)
        FileUtils.rm_f(File.join(dir, "#{label}.json"))
        outcome = HttperfProcesses.new(@wsesslog.files.map { |file| argv(url, file) }, cpus: [@cpus] * @connections, timeout_s: @timeout_s)
          .run(duration_s: duration_s, dir: dir, label: label)
        data = HttperfOutput.combine(outcome.summaries)
        unless @wsesslog.single_requests
          logs = Array.new(@connections) { |i| File.join(dir, "#{label}-#{i + 1}.log") }
          data.merge!(self.class.per_request_latency(logs, outcome.summaries))
        end
        Httperf.result(data, outcome, dir, label)
      end
    end
  end
end
