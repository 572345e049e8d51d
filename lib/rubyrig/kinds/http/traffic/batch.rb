# What traffic adds to one http batch: the load generator's file for the batch's round (wrk's Lua script,
# httperf's --wsesslog files) written into its artifacts, the part of Puma's request log written during
# the measured run (a capacity search's step: CapacityRun), and from it the per-endpoint metrics and the batch's queueing time (the client's
# mean latency minus the server's mean service time).
module Rubyrig
  module Kinds
    module Http
      class Traffic
        class Batch
          # How long the request log may keep growing after the generator stopped (responses in flight).
          SETTLE_S = 0.2
          POLL_S = 0.02

          def initialize(traffic, dir:, round:)
            @traffic = traffic
            @dir = dir
            @round = round
            @files = []
          end

          def sessions? = @traffic.sessions?

          # The Lua script wrk runs, for `threads` wrk threads.
          def wrk_script(threads) = remember(WrkScript.write(@traffic.calls(@round), dir: @dir, threads: threads))

          # httperf's sessions for `processes` processes: a --wsesslog file each, starting at its own place
          # in the batch's sessions, and the headers every request carries.
          def wsesslog(processes)
            sessions = @traffic.session_list(@round)
            files = Array.new(processes) do |i|
              remember(Wsesslog.write(sessions, dir: @dir, name: "traffic-#{i + 1}.wsesslog", offset: i * sessions.size / processes))
            end
            Load::HttperfSessions::Wsesslog.new(files: files, headers: @traffic.common_headers, single_requests: !sessions?).freeze
          end

          # Marks where the measured run starts in the server's request log (stdout).
          def start(log_path) = @from = settled_size(log_path)

          # Marks where it ends, once the log has stopped growing, and returns the run's window [from, to]
          # in bytes.
          def finish(log_path)
            @log_path = log_path
            @to = settled_size(log_path)
            window
          end

          def window = [@from, @to]

          # Takes the figures from another measured run's window (a capacity search's step): [from, to].
          def window=(window)
            @from, @to = window
          end

          # The per-endpoint metrics of the measured run and its queueing (nil when the client gave no
          # mean latency); measured: the generator's Load::Result.
          def metrics(measured)
            entries = RequestLog.parse(RequestLog.slice(@log_path, @from, @to))
            metrics = RequestLog.metrics(entries, @traffic, measured_s: measured.duration_s)
            latency = measured.latency_s["mean"]
            metrics["queueing_mean_s"] = latency - metrics["service_mean_s"] if latency && metrics["service_mean_s"]
            metrics["logged_request_count"] = entries.size
            metrics
          end

          # The files written for the batch, by name within its artifacts.
          def artifacts = @files.map { |path| File.basename(path) }

          private

          def remember(path)
            @files << path
            path
          end

          def settled_size(path)
            size = File.size?(path).to_i
            deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + SETTLE_S
            while Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
              sleep POLL_S
              now = File.size?(path).to_i
              return now if now == size
              size = now
            end
            size
          end
        end
      end
    end
  end
end
