# Reads the job records the workers append (one tab-separated line per finished job: jid, the number
# the enqueuer gave the job, enqueued at, started, finished, status, and "warmup" for a warmup job;
# times in integer nanoseconds of the system-wide monotonic clock) while they run, and turns the
# measured jobs' records into the drain window, throughput, run-time and queue-wait distributions and
# the jobs finished over time; warmup jobs only get their own count and drain window. Counts reveal
# lost or duplicated jobs. Its memory does not grow with the number of jobs: one bit per job number
# tells a duplicate, and the distributions and the timeline are streamed (Distribution, Timeline).

module Rubyrig
  module Kinds
    module Jobs
      class Ledger
        PATTERN = "jobs-*.tsv"

        attr_reader :processed, :duplicates, :errors, :first_started_at, :last_finished_at, :malformed,
          :warmup_processed

        attr_reader :unique

        def initialize(dir)
          @dir = dir
          @offsets = Hash.new(0)
          @seen = "".b
          @unique = 0
          @processed = 0
          @duplicates = 0
          @errors = Hash.new(0)
          @malformed = 0
          @run_s = Distribution.new
          @wait_s = Distribution.new
          @finished = Timeline.new
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
          m.merge!(distribution_metrics("job_run", @run_s))
          m.merge!(distribution_metrics("queue_wait", @wait_s))
          m
        end

        # Jobs finished in each of `buckets` equal slices of time from `since` (monotonic seconds, the
        # gate) to the last finish: {"bucket_s" => width, "completed" => [count, ...]}.
        def completions(since, buckets:)
          return nil unless @last_finished_at && @last_finished_at > since
          {"bucket_s" => (@last_finished_at - since) / buckets, "completed" => @finished.counts(since, @last_finished_at, buckets)}
        end

        private

        def distribution_metrics(name, distribution)
          return {} if distribution.empty?
          [50, 90, 99].to_h { |pct| ["#{name}_p#{pct}_s", distribution.percentile(pct)] }
        end

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
          jid, number, enqueued, started, finished, status, phase = line.chomp.split("\t")
          started = seconds(started)
          finished = seconds(finished)
          number = number_of(number)
          unless jid && started && finished && status && [nil, "warmup"].include?(phase) && number != :bad
            @malformed += 1
            return
          end
          first_time?(number) ? @unique += 1 : @duplicates += 1
          @errors[status] += 1 unless status == "ok"
          phase ? add_warmup(started, finished) : add_measured(started, finished, enqueued)
        end

        # The enqueuer's number of a job, nil for "-" (none), :bad for anything else than one it could give.
        def number_of(text)
          return nil if text == "-"
          text.to_s.match?(/\A\d{1,9}\z/) ? text.to_i : :bad
        end

        # Whether the job of this number is seen for the first time; a job without a number (one that a
        # job pushed itself) cannot be told from a duplicate, so it counts as new.
        def first_time?(number)
          return true if number.nil?
          byte, bit = number.divmod(8)
          @seen << ("\0" * [byte + 1 - @seen.bytesize, @seen.bytesize, 64].max).b if byte >= @seen.bytesize
          value = @seen.getbyte(byte)
          return false if value[bit] == 1
          @seen.setbyte(byte, value | (1 << bit))
          true
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
