# Reads the job records the workers append (one tab-separated line per finished job: jid, enqueued at,
# started, finished, status; times in integer nanoseconds of the system-wide monotonic clock) while
# they run, and turns them into the drain window, throughput, run-time and queue-wait distributions,
# the jobs finished over time, and the counts that reveal lost or duplicated jobs.
require "set"

module Rubyrig
  module Drivers
    class Jobs < Base
      class Ledger
        PATTERN = "jobs-*.tsv"

        attr_reader :processed, :duplicates, :errors, :first_started_at, :last_finished_at, :malformed

        def initialize(dir)
          @dir = dir
          @offsets = Hash.new(0)
          @jids = Set.new
          @processed = 0
          @duplicates = 0
          @errors = Hash.new(0)
          @malformed = 0
          @run_s = []
          @wait_s = []
          @finished = []
          @first_started_at = nil
          @last_finished_at = nil
        end

        # Reads whatever complete lines were appended since the last call; returns self.
        def read
          Dir.glob(File.join(@dir, PATTERN)).sort.each { |path| read_file(path) }
          self
        end

        def unique = @jids.size

        def error_count = @errors.values.sum

        def drain_s
          (@first_started_at && @last_finished_at) ? @last_finished_at - @first_started_at : nil
        end

        # Metrics of the drain; enqueued is the number of jobs the enqueuer pushed.
        def metrics
          m = {"processed_count" => @processed, "error_count" => error_count}
          drain = drain_s
          if drain&.positive?
            m["drain_s"] = drain
            m["jobs_per_s"] = @processed / drain
          end
          m.merge!(Jobs.percentile_metrics("job_run", @run_s))
          m.merge!(Jobs.percentile_metrics("queue_wait", @wait_s))
          m
        end

        # Jobs finished in each of `buckets` equal slices of time from `since` (monotonic seconds, the
        # gate) to the last finish: {"bucket_s" => width, "completed" => [count, ...]}.
        def completions(since, buckets:)
          return nil unless @last_finished_at && @last_finished_at > since
          width = (@last_finished_at - since) / buckets
          counts = Array.new(buckets, 0)
          @finished.each { |at| counts[((at - since) / width).floor.clamp(0, buckets - 1)] += 1 }
          {"bucket_s" => width, "completed" => counts}
        end

        private

        def read_file(path)
          File.open(path, "rb") do |f|
            f.seek(@offsets[path])
            chunk = f.read
            complete = chunk.rindex("\n")
            next unless complete
            @offsets[path] += complete + 1
            chunk[0..complete].each_line { |line| add(line) }
          end
        end

        def seconds(ns)
          value = ns && Integer(ns, 10, exception: false)
          value && value / 1e9
        end

        def add(line)
          jid, enqueued, started, finished, status = line.chomp.split("\t")
          started = seconds(started)
          finished = seconds(finished)
          unless jid && started && finished && status
            @malformed += 1
            return
          end
          @processed += 1
          @duplicates += 1 unless @jids.add?(jid)
          @errors[status] += 1 unless status == "ok"
          @first_started_at = started if @first_started_at.nil? || started < @first_started_at
          @last_finished_at = finished if @last_finished_at.nil? || finished > @last_finished_at
          @run_s << finished - started
          @finished << finished
          enqueued_at = seconds(enqueued)
          @wait_s << started - enqueued_at if enqueued_at
        end
      end
    end
  end
end
