# Drives httperf through sessions in a closed loop (traffic with `sessions:`, docs/traffic.md): each of
# `connections` processes is one simulated user at a time, running a session of its own --wsesslog file
# (one file per process, each starting at its own place) and, when it ends, the next (no --rate: a
# session starts when the last one is over), with --session-cookies as the user's cookie jar (httperf
# keeps one cookie per session). A session's requests share one keep-alive connection, so the
# connection's lifetime is the session's, think times included: latency is httperf's mean reply time
# per request (response and transfer), and no percentiles are reported.
require "fileutils"
require "uri"

module Rubyrig
  module Load
    class HttperfSessions
      # httperf stops after this many sessions; the run ends with SIGINT long before.
      SESSIONS = 1_000_000_000

      def self.reply_mean_us(text)
        m = text.match(/^Reply time \[ms\]: response ([\d.]+) transfer ([\d.]+)/)
        m && (m[1].to_f + m[2].to_f) * 1e3
      end

      attr_reader :connections

      # files: one --wsesslog file per process (Kinds::Http::Traffic::Batch#wsesslog_files).
      def initialize(binary:, files:, timeout_s:, cpus: nil)
        @binary = binary
        @files = files
        @connections = files.size
        @timeout_s = timeout_s
        @cpus = cpus
      end

      def name = "httperf"

      def threads = @connections

      def argv(url, file)
        uri = URI(url)
        [@binary, "--verbose", "--verbose", "--server", uri.host, "--port", uri.port, "--wsesslog", "#{SESSIONS},0,#{file}",
          "--session-cookies", "--timeout", @timeout_s].map(&:to_s)
      end

      # Runs one httperf process per file against url for duration_s and returns their summed Result.
      def run(url, duration_s:, dir:, label:)
        FileUtils.rm_f(File.join(dir, "#{label}.json"))
        outcome = HttperfProcesses.new(@files.map { |file| argv(url, file) }, cpus: [@cpus] * @connections, timeout_s: @timeout_s)
          .run(duration_s: duration_s, dir: dir, label: label)
        data = HttperfOutput.combine(outcome.summaries)
        Httperf.result(data.merge(per_request_latency(dir, label, outcome.summaries)), outcome, dir, label)
      end

      private

      # The mean reply time weighted by replies; a connection's lifetime (a session's) is no latency.
      def per_request_latency(dir, label, summaries)
        means = Array.new(@connections) { |i| self.class.reply_mean_us(Processes::TextFile.read(File.join(dir, "#{label}-#{i + 1}.log"))) }
        replies = summaries.map { |s| s["requests"] }
        timed = means.zip(replies).select { |mean, n| mean && n.positive? }
        mean = timed.empty? ? nil : timed.sum { |m, n| m * n } / timed.sum(&:last)
        HttperfOutput::PERCENTILES.keys.to_h { |p| ["latency_#{p}_us", nil] }.merge("latency_mean_us" => mean, "latency_max_us" => nil)
      end
    end
  end
end
