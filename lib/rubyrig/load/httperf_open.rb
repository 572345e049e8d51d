# Drives httperf in an open loop: requests arrive at rate_per_s whatever the server does, one request per
# connection (--num-calls 1), Poisson (--period e<mean>) or evenly spaced (--period d<interval>). httperf
# starts each connection when it is due and its histogram counts the lifetime from that start, so a
# request's latency counts from when it was due as long as httperf keeps up. When it did not (fewer
# connections started than the rate asks, or no file descriptor for one), the Result says `behind`.
# httperf polls its timers in a busy loop, so it uses all of one CPU at any rate: its CPU use says
# nothing of its load, but a share well below one CPU says it was kept off it (cpu_warning).
# A Poisson rate above one process's share is split over several processes, one per load CPU, each with
# its own random stream (--client I/N): a sum of independent Poisson processes is Poisson. With traffic,
# --wsesslog sessions arrive at the rate instead (HttperfSessions): for a mix, each a single request.
require "uri"
require "fileutils"

module Rubyrig
  module Load
    class HttperfOpen
      ARRIVALS = %w[poisson constant].freeze
      # The most requests/s one process is given: a third of the ceiling measured on a 2-core host
      # (bench/load-generators: 12,000/s against a trivial server before fd-unavail), leaving headroom.
      PROCESS_RATE_PER_S = 4000
      # Below this share of its CPUs over its run, httperf was kept off them: its timers fired late.
      CPU_KEPT = 0.8

      # Why a run fell behind its offered rate (an empty list when it kept up), from the combined summary
      # (HttperfOutput.combine) of `processes` processes.
      def self.behind_reasons(data, rate_per_s:, arrival:, processes:)
        reasons = []
        duration_s = data.fetch("duration_us") / 1e6
        expected = rate_per_s * duration_s
        started = data.fetch("connections")
        slack = 0.02 * expected + ((arrival == "poisson") ? 4 * Math.sqrt(expected) : processes)
        if started < expected - slack
          reasons << format("it started %d requests in %.1f s, %.1f/s of the %g/s asked", started, duration_s, started / duration_s, rate_per_s)
        end
        unavailable = data.fetch("errors_fd_unavail")
        reasons << "it had no file descriptor for #{unavailable} requests (over 1,000 open at once)" if unavailable.positive?
        reasons
      end

      # A warning when httperf had less than CPU_KEPT of its CPUs (cpu_fraction: its CPU time over its
      # wall time and processes): other programs held them, so it started requests and read responses
      # late by up to a scheduler slice, a few milliseconds.
      def self.cpu_warning(cpu_fraction)
        return nil unless cpu_fraction && cpu_fraction < CPU_KEPT
        format("httperf had %.0f%% of its CPUs (it polls its timers and needs all of one): other programs held them, so " \
          "requests may have started, and responses been read, a few ms late; latencies of a few ms are not resolved", cpu_fraction * 100)
      end

      attr_reader :rate_per_s, :arrival

      # wsesslog: traffic's sessions (HttperfSessions::Wsesslog, a file for each possible process): then
      # sessions, not single requests to the URL, arrive at the rate; headers: sent with every request
      # to the URL (a wsesslog carries its own).
      def initialize(binary:, rate_per_s:, arrival:, timeout_s:, cpus:, wsesslog: nil, headers: {})
        raise ExperimentError, "arrival '#{arrival}' is not one of #{ARRIVALS.join(", ")}" unless ARRIVALS.include?(arrival)
        @binary = binary
        @rate_per_s = rate_per_s
        @arrival = arrival
        @timeout_s = timeout_s
        @cpus = cpus ? Processes::CpuList.parse(cpus).map(&:to_s) : [nil]
        @wsesslog = wsesslog
        @headers = headers
      end

      def name = "httperf"

      # How many httperf processes share the rate: one per PROCESS_RATE_PER_S, at most one per load CPU
      # (each spins on its own CPU); evenly spaced arrivals stay in one process, so that they stay even.
      def processes
        return 1 if @arrival == "constant"
        (@rate_per_s.to_f / PROCESS_RATE_PER_S).ceil.clamp(1, @cpus.size)
      end

      # Processes the generator runs at once, for its CPU share.
      def threads = processes

      # The command line of process `client` of `clients`, each offering its share of the rate.
      def argv(url, client: 0, clients: processes)
        uri = URI(url)
        interval = clients / @rate_per_s.to_f
        what = @wsesslog ? HttperfSessions.arguments(@wsesslog.files.fetch(client), @wsesslog.headers) :
          ["--uri", uri.request_uri, "--num-conns", 2**31 - 1, "--num-calls", 1, *Httperf.header_arguments(@headers)]
        [@binary, "--verbose", "--verbose", "--server", uri.host, "--port", uri.port, *what, "--timeout", @timeout_s, "--client", "#{client}/#{clients}",
          "--period", "#{(@arrival == "poisson") ? "e" : "d"}#{format("%.9g", interval)}"].map(&:to_s)
      end

      # Offers the rate to url for duration_s and returns the Result, with the offered and achieved rates
      # and whether httperf fell behind.
      def run(url, duration_s:, dir:, label:)
        FileUtils.rm_f(File.join(dir, "#{label}.json"))
        n = processes
        argvs = Array.new(n) { |i| argv(url, client: i, clients: n) }
        outcome = HttperfProcesses.new(argvs, cpus: @cpus.first(n), timeout_s: @timeout_s).run(duration_s: duration_s, dir: dir, label: label)
        data = HttperfOutput.combine(outcome.summaries)
        if @wsesslog && !@wsesslog.single_requests
          data.merge!(HttperfSessions.per_request_latency(Array.new(n) { |i| File.join(dir, "#{label}-#{i + 1}.log") }, outcome.summaries))
        end
        reasons = self.class.behind_reasons(data, rate_per_s: @rate_per_s, arrival: @arrival, processes: n)
        data.merge!("offered_rate_per_s" => @rate_per_s.to_f, "achieved_rate_per_s" => data["connections"] / (data["duration_us"] / 1e6),
          "behind" => reasons.any?, "behind_reasons" => reasons)
        Httperf.result(data, outcome, dir, label)
      end
    end
  end
end
