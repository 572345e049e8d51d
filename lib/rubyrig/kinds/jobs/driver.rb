# Measures one batch of a jobs workload: drains a Sidekiq queue on a private Redis: starts a fresh redis-server (and stub
# endpoints when the workload wants them), enqueues every job from a process of the target runtime
# (timed alone), boots the workers behind a gate (boot timed alone), opens the gate and waits for the
# workers' per-job records to account for every job, then stops everything. Throughput comes from the
# first job start to the last job finish in those records, never from the queue length. With
# `warmup_jobs:` that many jobs are pushed ahead of the measured ones and drained unmeasured in the
# same workers, so that a JIT runtime is measured after its warmup.
require "fileutils"

module Rubyrig
  module Kinds
    module Jobs
      class Driver
        CLIENT = File.expand_path("../../sidekiq/client.rb", __dir__)
        POLL_S = 0.02
        SHORT_DRAIN_S = 1.0
        TIMELINE_BUCKETS = 100

        # Raised inside a batch to fail it with a reason; the run goes on.
        class BatchFailed < Error; end

        # p50, p90 and p99 of a list of durations, as NAME_pNN_s metrics.
        def self.percentile_metrics(name, values)
          return {} if values.empty?
          sorted = values.sort
          [50, 90, 99].to_h { |pct| ["#{name}_p#{pct}_s", Stats.percentile(sorted, pct)] }
        end

        def initialize(context)
          @context = context
          @options = context.workload.options
          @dir = context.artifacts_dir
          @facts = {}
          @warnings = []
        end

        def run
          @deadline = now + @context.timeout_s
          # Each owner is assigned before it starts anything, so that the ensure below stops whatever ran.
          @redis = redis_server
          @redis.start
          if @options["stubs"]
            @stubs = Services::StubEndpoints.new(dir: File.join(@dir, "stubs"))
            @stubs.start
          end
          enqueue = enqueue_jobs
          @workers = Services::SidekiqWorkers.new(@context, process_run: Processes::MeasuredRun, processes: param("processes"),
            concurrency: param("concurrency"), env: target_env, control_dir: File.join(@dir, "control"))
          @workers.start
          boot_s = wait_for_boot
          ledger = drain
          drain_cpu_s = @workers.cpu_s - @cpu_at_gate
          @workers.snapshot
          outcomes = @workers.stop
          ledger.read
          report = run_client("report")
          result(enqueue, boot_s, ledger, drain_cpu_s, outcomes, report)
        rescue BatchFailed, Services::RedisServer::Failure, Services::StubEndpoints::Failure => e
          Result.failed(e.message, facts: @facts, warnings: @warnings, artifacts: artifacts)
        ensure
          @workers&.abort
          @stubs&.abort
          @redis&.abort
        end

        private

        def param(name) = Integer(@context.params.fetch(name))

        def warmup_jobs = @options.fetch("warmup_jobs")

        def jobs_file
          @options["file"] || File.expand_path(@context.workload.target, @context.workload.base_dir)
        end

        def redis_server
          redis = Services::RedisServer.new(log_path: File.join(@dir, "redis.log"), pid_path: File.join(@dir, "redis.pid"))
          @facts["redis_version"] = redis.version
          @facts["redis_transport"] = "unix"
          redis
        end

        # What every Ruby process of the batch (enqueuer, workers, report) needs besides its MeasuredRun env.
        def target_env
          env = {
            "REDIS_URL" => @redis.url,
            "RUBYRIG_JOBS_FILE" => jobs_file,
            "RUBYRIG_JOBS_COUNT" => param("jobs").to_s,
            "RUBYRIG_WARMUP_JOBS" => warmup_jobs.to_s,
            "RUBYRIG_JOBS_DIR" => @dir,
            "RUBYRIG_BATCH_ID" => @context.batch.id.to_s,
            "RUBYRIG_SIDEKIQ_LOG_LEVEL" => @options.fetch("log_level"),
            "RUBYRIG_GATE_TIMEOUT_S" => remaining_s.to_s,
            "RUBYRIG_DATABASE_URL" => database_url
          }
          FileUtils.mkdir_p(File.join(@dir, "records"))
          env.merge!(@stubs.env) if @stubs
          env.compact
        end

        def database_url
          url = @options["database"]
          (url == "sqlite") ? "sqlite3:#{File.join(@dir, "jobs.sqlite3")}" : url
        end

        def enqueue_jobs
          data = run_client("enqueue")
          count = param("jobs")
          unless data["count"] == count && data["warmup_count"].to_i == warmup_jobs
            raise BatchFailed, "the enqueuer pushed #{data["count"]} of #{count} jobs and #{data["warmup_count"].to_i} of #{warmup_jobs} warmup jobs"
          end
          @facts["sidekiq_version"] = data["sidekiq_version"]
          @facts["warmup_jobs"] = warmup_jobs
          data.merge("duration_s" => data["finished_at"] - data["started_at"])
        end

        # Runs client.rb STEP under the target runtime and returns what it recorded.
        def run_client(step)
          dir = File.join(@dir, step)
          FileUtils.mkdir_p(dir)
          process = Processes::MeasuredRun.new(@context.with(artifacts_dir: dir, timeout_s: remaining_s), ruby_root: true)
          outcome = process.run(@context.ruby_argv(CLIENT, step),
            env: process.env.merge(target_env))
          check_redis("during the #{step} step")
          raise BatchFailed, "#{step} step failed: #{outcome.failure_reason}" unless outcome.ok?
          outcome.root_probe&.dig("jobs_#{step}") || raise(BatchFailed, "the #{step} step reported nothing; see #{dir}")
        end

        def wait_for_boot
          until @workers.all_ready?
            watch("while the workers booted")
            sleep POLL_S
          end
          @workers.boot_s
        end

        # Opens the gate and reads the records until every job, warmup jobs included, is accounted for.
        def drain
          count = param("jobs") + warmup_jobs
          ledger = Ledger.new(File.join(@dir, "records"))
          @cpu_at_gate = @workers.cpu_s
          @gate_at = @workers.open_gate
          while ledger.read.unique < count
            watch("during the drain; #{ledger.unique} of #{count} jobs had finished")
            sleep POLL_S
          end
          ledger
        end

        def watch(phase)
          check_redis(phase)
          number, run = @workers.exited
          if run
            exit = run.child.wait
            raise BatchFailed, "sidekiq worker #{number} #{run.exit_text(exit)} #{phase}; see #{File.join(@dir, "worker-#{number}", "stderr.log")}"
          end
          raise BatchFailed, "timed out #{phase}; raise timeout_s or lower jobs" if remaining_s <= 0
        end

        def check_redis(phase)
          return if @redis.alive?
          raise BatchFailed, "redis-server died #{phase} (#{@redis.exit_description}); see #{File.join(@dir, "redis.log")}"
        end

        def result(enqueue, boot_s, ledger, drain_cpu_s, outcomes, report)
          count = param("jobs")
          workload = report["workload"] || {}
          metrics = metrics(enqueue, boot_s, ledger, drain_cpu_s, outcomes, workload)
          @facts.merge!(outcomes.first.facts)
          @facts["start_lag_s"] = ledger.first_started_at - @gate_at if ledger.first_started_at
          @facts["sidekiq_processed"] = report["sidekiq_processed"]
          @warnings.concat(outcomes.flat_map(&:warnings).uniq)
          problems = outcomes.flat_map(&:problems).uniq + Array(workload["problems"]) + ledger_problems(ledger, count)
          @warnings.concat(warnings(ledger, report, count))
          failed = outcomes.each_with_index.reject { |outcome, i| outcome.ok? || killed_after_drain(outcome, i + 1) }.map(&:first)
          status = if problems.any? || failed.any?
            Results::Trial::FAILED
          elsif ledger.error_count.positive?
            Results::Trial::OK_WITH_ERRORS
          else
            Results::Trial::OK
          end
          reason = problems.first || failed.map(&:failure_reason).first
          reason = "#{ledger.error_count} jobs raised: #{ledger.errors.keys.first(3).join(", ")}" if status == Results::Trial::OK_WITH_ERRORS
          Result.new(status: status, reason: reason, metrics: metrics.compact, facts: @facts,
            samples: {"jobs_timeline" => timeline(enqueue, ledger)}.compact, artifacts: artifacts, warnings: @warnings.uniq)
        end

        # The workers' and the ledger's metrics, the enqueue and boot times, and what the workload's own
        # report adds (its metrics, and p50/p90/p99 of its distributions).
        def metrics(enqueue, boot_s, ledger, drain_cpu_s, outcomes, workload)
          metrics = Services::SidekiqWorkers.metrics(outcomes).merge(ledger.metrics).merge(
            "enqueued_count" => enqueue["count"],
            "enqueue_s" => enqueue["duration_s"],
            "enqueue_per_s" => enqueue["count"] / enqueue["duration_s"],
            "boot_s" => boot_s,
            "drain_cpu_s" => drain_cpu_s
          )
          metrics.merge!(workload["metrics"] || {})
          (workload["distributions"] || {}).each { |name, values| metrics.merge!(self.class.percentile_metrics(name, values)) }
          metrics
        end

        # The batch on one clock, in seconds from the gate's opening (negative before it): enqueue, boot,
        # first job start, last job finish, and the jobs finished in each slice of the drain.
        def timeline(enqueue, ledger)
          completions = ledger.completions(@gate_at, buckets: TIMELINE_BUCKETS)
          return nil unless completions
          since_gate = ->(at) { (at - @gate_at).round(6) }
          {
            "enqueue_start_s" => since_gate.call(enqueue["started_at"]), "enqueue_end_s" => since_gate.call(enqueue["finished_at"]),
            "boot_start_s" => since_gate.call(@workers.started_at), "ready_s" => since_gate.call(@workers.ready_at),
            "first_start_s" => since_gate.call(ledger.first_started_at), "last_finish_s" => since_gate.call(ledger.last_finished_at),
            "bucket_s" => completions["bucket_s"].round(9), "completed" => completions["completed"]
          }
        end

        # A worker that needed KILL after TERM once every job had been recorded: the drain stands (the
        # records are complete), only that worker's exit facts (GC, memory at exit) are lost; a warning.
        def killed_after_drain(outcome, number)
          return false unless outcome.stopped && outcome.exit&.signal == "KILL" && outcome.problems.empty?
          @warnings << "sidekiq worker #{number} did not exit within #{Services::SidekiqWorkers::GRACE_S.round} s of TERM and was killed " \
            "after every job had finished, so the drain stands; its exit facts (GC, memory at exit) are missing; see " \
            "#{File.join(@dir, "worker-#{number}", "stderr.log")}"
          true
        end

        def ledger_problems(ledger, count)
          problems = []
          problems << "#{ledger.duplicates} jobs ran more than once" if ledger.duplicates.positive?
          if ledger.processed != count
            problems << "#{ledger.processed} jobs were processed but #{count} were enqueued"
          end
          if ledger.warmup_processed != warmup_jobs
            problems << "#{ledger.warmup_processed} warmup jobs were processed but #{warmup_jobs} were enqueued"
          end
          problems << "#{ledger.malformed} job records were unreadable" if ledger.malformed.positive?
          problems
        end

        def warnings(ledger, report, count)
          list = []
          if ledger.drain_s && ledger.drain_s < SHORT_DRAIN_S
            list << "the drain lasted only #{ledger.drain_s.round(3)} s; raise jobs so that start and stop effects stay small"
          end
          if report["sidekiq_processed"] && report["sidekiq_processed"] != count + warmup_jobs
            list << "Sidekiq's own processed counter says #{report["sidekiq_processed"]}, rubyrig's records #{ledger.processed + ledger.warmup_processed}"
          end
          list
        end

        # What this batch left in its artifacts directory: logs, probe files, records, stubs, SQLite file.
        def artifacts = Dir.children(@dir).sort

        def remaining_s = [@deadline - now, 0].max

        def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      end
    end
  end
end
