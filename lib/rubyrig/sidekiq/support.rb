# Loaded INSIDE the target runtime by the jobs workload (Sidekiq workers, the enqueuer and the report
# step): what the workload's jobs file declares, the cell's parameters, the start gate that holds the
# workers until rubyrig opens it, and the server middleware that times every job on the monotonic clock.
# Standard library and Sidekiq only, old syntax (Ruby 2.6 and JRuby too), never prints to stdout.
require File.expand_path("../probe/params", File.dirname(__FILE__))

module RubyrigJobs
  # What a jobs file declares: the job class, the arguments of job number i, a setup hook (before the
  # enqueue) and a report hook (after the drain, Redis still up) returning metrics, distributions and
  # problems.
  Definition = Struct.new(:job_class, :args, :setup, :report)

  NO_ARGS = lambda { |_i| [] }

  class << self
    # Called once by a jobs file: RubyrigJobs.define(MyJob, args: lambda { |i| [i] }).
    def define(job_class, args: nil, setup: nil, report: nil)
      @definition = Definition.new(job_class, args || NO_ARGS, setup, report)
    end

    def load_definition
      @definition = nil
      load(ENV.fetch("RUBYRIG_JOBS_FILE"))
      definition
    end

    def definition
      @definition || raise(ArgumentError, ENV["RUBYRIG_JOBS_FILE"].to_s + " never called RubyrigJobs.define(JobClass)")
    end

    # The cell's parameters as strings ("checks" => "http,tcp").
    def params
      RubyrigParams.all
    end

    # One parameter converted to the type of its default.
    def param(name, default)
      RubyrigParams.fetch(name, default)
    end

    def job_count
      Integer(ENV.fetch("RUBYRIG_JOBS_COUNT"), 10)
    end

    # Jobs pushed before the measured ones and drained unmeasured (0 without warmup).
    def warmup_count
      Integer(ENV.fetch("RUBYRIG_WARMUP_JOBS", "0"), 10)
    end

    def batch_id
      ENV.fetch("RUBYRIG_BATCH_ID", "")
    end

    def database_url
      ENV["RUBYRIG_DATABASE_URL"]
    end

    def monotonic
      Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end

    def monotonic_ns
      Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
    end

    def log_level
      require "logger"
      Logger.const_get(ENV.fetch("RUBYRIG_SIDEKIQ_LOG_LEVEL", "warn").upcase)
    end

    # The per-process file of job records, opened before the gate so that no job pays for it.
    def journal
      @journal ||= Journal.new(File.join(dir("records"), "jobs-" + Process.pid.to_s + ".tsv"))
    end

    # Sidekiq's :startup hook: says this worker has booted, then holds it until rubyrig opens the
    # gate, so that no job starts before every worker is ready.
    def wait_at_gate
      journal
      ready = File.join(dir("control"), "ready-" + Process.pid.to_s)
      File.write(ready + ".tmp", monotonic.to_s)
      File.rename(ready + ".tmp", ready)
      go = File.join(dir("control"), "go")
      deadline = monotonic + Float(ENV.fetch("RUBYRIG_GATE_TIMEOUT_S", "600"))
      until File.exist?(go)
        raise "rubyrig did not open the start gate in time" if monotonic > deadline
        sleep 0.001
      end
    end

    private

    def dir(name)
      File.join(ENV.fetch("RUBYRIG_JOBS_DIR"), name)
    end
  end

  # One line per finished job: jid, the job's number from the enqueuer ("-" for a job pushed without
  # one), enqueued at, started, finished (integer nanoseconds), status, and "warmup" in a seventh field
  # for a job of the unmeasured warmup share.
  # Lines collect in memory and a background thread writes them every FLUSH_S (and at exit), so that
  # a job pays for neither float formatting nor a write(2); rubyrig sees the last job within FLUSH_S.
  class Journal
    FLUSH_S = 0.005

    def initialize(path)
      @file = File.open(path, "a")
      @file.sync = true
      @lock = Mutex.new
      @buffer = +""
      @flusher = Thread.new do
        loop do
          sleep FLUSH_S
          flush
        end
      end
      at_exit { flush }
    end

    def record(jid, number, enqueued_ns, started_ns, finished_ns, status, warmup)
      line = "#{jid}\t#{number || "-"}\t#{enqueued_ns || "-"}\t#{started_ns}\t#{finished_ns}\t#{status}"
      line << "\twarmup" if warmup
      line << "\n"
      @lock.synchronize { @buffer << line }
    end

    def flush
      pending = nil
      @lock.synchronize do
        return if @buffer.empty?
        pending = @buffer
        @buffer = +""
      end
      @file.write(pending)
    end
  end

  # Sidekiq server middleware, first in the chain: the job's start and finish on the monotonic clock
  # (system-wide on Linux, so comparable with the enqueuer's and rubyrig's), and its outcome.
  class Recorder
    def call(_job_instance, job, _queue)
      started_ns = RubyrigJobs.monotonic_ns
      status = "ok"
      begin
        yield
      rescue Exception => e # rubocop:disable Lint/RescueException -- recorded, then raised again unchanged
        status = e.class.name
        raise
      ensure
        RubyrigJobs.journal.record(job["jid"], job["rubyrig_number"], job["rubyrig_enqueued_ns"], started_ns, RubyrigJobs.monotonic_ns,
          status, job["rubyrig_warmup"])
      end
    end
  end
end
