# Reads the job records the workers append (one tab-separated line per finished job: jid, enqueued at,
# started, finished, status, and "warmup" for a warmup job; times in integer nanoseconds of the
# system-wide monotonic clock) while they run, and turns the measured jobs' records into the drain
# window, throughput, run-time and queue-wait distributions and the jobs finished over time; warmup
# jobs only get their own count and drain window. Counts reveal lost or duplicated jobs.
require "set"

module Rubyrig
  module Drivers
    class Jobs < Base
      class Ledger
        PATTERN = "jobs-*.tsv"

        attr_reader :processed, :duplicates, :errors, :first_started_at, :last_finished_at, :malformed,
          :warmup_processed

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
          @warmup_processed = 0
          @warmup_window = []
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
          m.merge!(warmup_metrics)
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

        def warmup_metrics
          return {} if @warmup_processed.zero?
          m = {"warmup_processed_count" => @warmup_processed}
          first, last = @warmup_window
          m["warmup_drain_s"] = last - first if last > first
          m["warmup_jobs_per_s"] = @warmup_processed / (last - first) if last > first
          m
        end

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
          jid, enqueued, started, finished, status, phase = line.chomp.split("\t")
          started = seconds(started)
          finished = seconds(finished)
          unless jid && started && finished && status && [nil, "warmup"].include?(phase)
            @malformed += 1
            return
          end
          @duplicates += 1 unless @jids.add?(jid)
          @errors[status] += 1 unless status == "ok"
          phase ? add_warmup(started, finished) : add_measured(started, finished, enqueued)
        end

        def add_warmup(started, finished)
          @warmup_processed += 1
          first, last = @warmup_window
          @warmup_window = [[first, started].compact.min, [last, finished].compact.max]
        end

        def add_measured(started, finished, enqueued)
          @processed += 1
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
