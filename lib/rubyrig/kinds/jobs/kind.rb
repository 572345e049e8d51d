# The jobs kind: a Sidekiq queue drained by workers on a private Redis (`jobs:` the Ruby file that
# defines the jobs, `gemfile:` with sidekiq). Its parameters are the jobs per batch, the worker
# processes and their concurrency; its keys the database, stub endpoints, log level and warmup jobs.
module Rubyrig
  module Kinds
    module Jobs
      module Kind
        LOG_LEVELS = %w[debug info warn error].freeze
        METRICS = [
          {name: "jobs_per_s", unit: "1/s", higher_is_better: true, kind: :speed, rate: true, label: "jobs/s"},
          {name: "enqueue_per_s", unit: "1/s", higher_is_better: true, kind: :speed, rate: true, label: "enqueue rate"},
          {name: "drain_s", unit: "s", higher_is_better: false, kind: :speed, label: "drain time"},
          {name: "enqueue_s", unit: "s", higher_is_better: false, kind: :speed, label: "enqueue time"},
          {name: "drain_cpu_s", unit: "s", higher_is_better: false, kind: :resource, label: "worker CPU during the drain"},
          {name: "processed_count", unit: "", higher_is_better: true, kind: :resource, label: "jobs processed"},
          {name: "enqueued_count", unit: "", higher_is_better: true, kind: :resource, label: "jobs enqueued"},
          {name: "warmup_jobs_per_s", unit: "1/s", higher_is_better: true, kind: :speed, rate: true, label: "jobs/s during warmup"},
          {name: "warmup_drain_s", unit: "s", higher_is_better: false, kind: :speed, label: "warmup drain time"},
          {name: "warmup_processed_count", unit: "", higher_is_better: true, kind: :resource, label: "warmup jobs processed"},
          {name: "check_failure_count", unit: "", higher_is_better: false, kind: :resource, label: "checks down"},
          {name: "job_run_p50_s", unit: "s", higher_is_better: false, kind: :speed, label: "job run p50"},
          {name: "job_run_p90_s", unit: "s", higher_is_better: false, kind: :speed, label: "job run p90"},
          {name: "job_run_p99_s", unit: "s", higher_is_better: false, kind: :speed, label: "job run p99"},
          {name: "queue_wait_p50_s", unit: "s", higher_is_better: false, kind: :speed, label: "queue wait p50"},
          {name: "queue_wait_p90_s", unit: "s", higher_is_better: false, kind: :speed, label: "queue wait p90"},
          {name: "queue_wait_p99_s", unit: "s", higher_is_better: false, kind: :speed, label: "queue wait p99"},
          {name: "check_latency_p50_s", unit: "s", higher_is_better: false, kind: :speed, label: "check latency p50"},
          {name: "check_latency_p90_s", unit: "s", higher_is_better: false, kind: :speed, label: "check latency p90"},
          {name: "check_latency_p99_s", unit: "s", higher_is_better: false, kind: :speed, label: "check latency p99"}
        ].freeze

        extend Contract

        def self.kind = "jobs"

        def self.keys = %w[database stubs log_level redis warmup_jobs]

        def self.default_params = {"jobs" => 1000, "processes" => 1, "concurrency" => 10}.freeze

        # Sidekiq's threads per process, and the processes.
        def self.concurrency_params = %w[concurrency processes]

        # No warmup jobs, and Sidekiq logs warnings and errors only.
        def self.default_options = {"warmup_jobs" => 0, "log_level" => "warn"}.freeze

        def self.primary_metrics = %w[jobs_per_s]

        def self.metrics = METRICS

        def self.driver = Driver

        def self.load(fields, builtin:)
          if builtin.nil? && !fields.key?("gemfile")
            fields.fail([], "needs `gemfile:` with sidekiq in it, e.g. gemfile: Gemfile containing gem \"sidekiq\"")
          end
          target = builtin ? builtin.name : fields.file(selector, "the path of a Ruby file")
          options = (builtin&.options || {}).merge(fields.hash.slice(*keys))
          check_options(options, fields)
          check_params(fields)
          options["file"] = builtin.path if builtin
          Loaded.new(target: target, options: options, name: builtin ? nil : File.basename(target))
        end

        def self.check_options(options, fields)
          check_database(options["database"], fields)
          fields.boolean("stubs")
          fields.one_of("log_level", LOG_LEVELS)
          unless options["redis"].nil? || options["redis"] == "unix"
            fields.fail(["redis"], "can only be unix: redis-server listens on a unix socket in a private directory, never on TCP, " \
              "where any user of the machine could reach it; drop `redis:`")
          end
          warmup = options["warmup_jobs"]
          if !warmup.nil? && !(warmup.is_a?(Integer) && warmup >= 0)
            fields.fail(["warmup_jobs"], "must be a whole number of jobs, 0 or more (drained unmeasured before the measured jobs), got #{warmup.inspect}")
          end
        end

        def self.check_database(url, fields)
          return if url.nil? || url == "sqlite" || url.to_s.match?(%r{\Apostgres(ql)?://})
          fields.fail(["database"], "must be sqlite or a postgres://user@host/db URL, got #{url.inspect}")
        end

        def self.check_params(fields)
          params = fields["params"]
          return unless params.is_a?(Hash)
          default_params.each_key do |key|
            next unless params.key?(key) && !Array(params[key]).all? { |v| v.is_a?(Integer) && v.positive? }
            fields.fail(["params", key], "must be a positive integer or a list of them, e.g. #{key}: [1000, 10000]")
          end
        end
      end
    end
  end
end
