# Runs INSIDE the target runtime as `ruby client.rb enqueue|report`. enqueue: the jobs file's setup,
# then every job pushed with Sidekiq::Client.push_bulk in chunks, timed on the monotonic clock (the
# pushes only: building the arguments and connecting come first), each numbered in its payload;
# warmup jobs, marked in their payload, go first, so that the workers take them before any measured
# job (a queue is FIFO). report: after the drain, Sidekiq's own counters and the jobs file's report
# hook. Results go to rubyrig through the probe's record.
# Old syntax, standard library and Sidekiq only.
require File.expand_path("support", File.dirname(__FILE__))
require "sidekiq"
require "sidekiq/api"

module RubyrigJobs
  module Client
    CHUNK = 1000

    # Sidekiq client middleware: numbers the jobs in the order they are pushed (warmup jobs first, from
    # 0), so that rubyrig tells a job run twice from two jobs with one bit per job.
    class Numbering
      @pushed = 0

      class << self
        attr_accessor :pushed
      end

      def call(_job_class, job, _queue, _redis_pool)
        job["rubyrig_number"] = Numbering.pushed
        Numbering.pushed += 1
        yield
      end
    end

    module_function

    def enqueue(definition)
      definition.setup&.call
      warmup = Array.new(RubyrigJobs.warmup_count) { |i| definition.args.call(i) }
      args = Array.new(RubyrigJobs.job_count) { |i| definition.args.call(i) }
      Sidekiq.configure_client { |config| config.client_middleware { |chain| chain.add(Numbering) } }
      Sidekiq.redis { |conn| conn.call("PING") }
      started_at = RubyrigJobs.monotonic
      warmed = push(definition, warmup, true)
      pushed = push(definition, args, false)
      finished_at = RubyrigJobs.monotonic
      {"count" => pushed, "warmup_count" => warmed, "started_at" => started_at, "finished_at" => finished_at,
       "sidekiq_version" => Sidekiq::VERSION}
    end

    def push(definition, args, warmup)
      pushed = 0
      args.each_slice(CHUNK) do |chunk|
        # The stamp is taken before the chunk is sent, so a job's queue wait includes its own push.
        item = {"class" => definition.job_class, "args" => chunk, "retry" => false,
                "rubyrig_enqueued_ns" => RubyrigJobs.monotonic_ns}
        item["rubyrig_warmup"] = true if warmup
        pushed += Sidekiq::Client.push_bulk(item).compact.size
      end
      pushed
    end

    def report(definition)
      stats = Sidekiq::Stats.new
      result = {"sidekiq_processed" => stats.processed, "sidekiq_failed" => stats.failed,
                "queue_size" => stats.enqueued}
      result["workload"] = definition.report.call if definition.report
      result
    end
  end
end

definition = RubyrigJobs.load_definition
case ARGV[0]
when "enqueue" then RubyrigProbe.record("jobs_enqueue", RubyrigJobs::Client.enqueue(definition))
when "report" then RubyrigProbe.record("jobs_report", RubyrigJobs::Client.report(definition))
else raise ArgumentError, "usage: client.rb enqueue|report"
end
