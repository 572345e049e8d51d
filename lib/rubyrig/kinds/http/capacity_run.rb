# A capacity search inside one batch, against the batch's one server (the driver boots it and stops
# it): each step offers one rate in open loop, first for the step's own warmup, then measured, and the
# CapacitySearch decides the next rate. Gives the driver the measured run at the capacity found (its
# latency and errors become the batch's http metrics), the capacity metrics, every step for the batch's
# samples, the step logs as artifacts, and what limited the search. With traffic, each step's measured
# run is marked in the server's request log, and the batch's per-endpoint figures are taken from the
# capacity step's part of it only: they describe the rate found, not the whole search.
module Rubyrig
  module Kinds
    module Http
      class CapacityRun
        LABEL = "capacity"

        # measured/warmup: the Load::Results of the capacity step (nil when no rate was sustained);
        # problem: why the batch failed (nil when a rate was sustained).
        Measured = Struct.new(:measured, :warmup, :metrics, :sample, :warnings, :problem, keyword_init: true)

        # The artifacts of every step, in order: capacity-01-warmup.json, capacity-01-1.log...
        def self.artifacts(dir) = Dir.children(dir).grep(/\A#{LABEL}-\d+(-warmup)?(-\d+)?\.(log|json)\z/o).sort

        # The search of the batch's driver: the workload's capacity settings and objective, open-loop
        # generators at each rate, the runs against `server` (Services::Puma), the load CPUs, and the
        # batch's Traffic::Batch (or nil).
        def self.for_batch(context, server, load_cpus, traffic: nil)
          options = context.workload.options
          params = context.params
          new(settings: options["capacity"], objective: Objective.parse(options["slo"], max_error_rate: options["max_error_rate"]).first,
            batch_number: context.batch.number, generator: ->(rate) { LoadModel.generator(options, params.merge("rate" => rate), load_cpus, traffic: traffic) },
            run: ->(generator, duration_s, label) { generator.run(server.url, duration_s: duration_s, dir: context.artifacts_dir, label: label) },
            check: ->(what) { server.check_running!(what) }, traffic: traffic && StepLog.new(traffic, server.log_path("stdout")))
        end

        # Where each step's measured run lies in the server's request log (Traffic::Batch's marks).
        StepLog = Struct.new(:traffic, :log_path) do
          def start = traffic.start(log_path)

          def finish = traffic.finish(log_path)

          # The batch's per-endpoint figures come from this window (a step's [from, to]).
          def use(window)
            traffic.window = window
          end
        end

        # The driver's Result of the capacity step with the search's metrics, samples and warnings added.
        def self.finish(result, search)
          Result.new(**result.to_h, metrics: result.metrics.merge(search.metrics), samples: result.samples.merge("capacity" => search.sample),
            warnings: result.warnings + search.warnings)
        end

        # A failed batch's Result (no rate sustained) with the search's steps kept in its samples.
        def self.failed(result, search) = Result.new(**result.to_h, samples: {"capacity" => search.sample})

        # settings: Capacity's; generator: rate -> an open-loop generator; run: (generator, duration_s,
        # label) -> Load::Result; check: (when) -> raises when the server is no longer running; traffic:
        # a StepLog (or nil) that marks each measured run in the request log.
        def initialize(settings:, objective:, batch_number:, generator:, run:, check:, traffic: nil)
          @settings = settings
          @objective = objective
          @start_rate_per_s = Capacity.start_rate_per_s(settings, batch_number)
          @generator = generator
          @run = run
          @check = check
          @traffic = traffic
        end

        def measure
          runs = {}
          index = 0
          outcome = CapacitySearch.new(settings: @settings, objective: @objective, start_rate_per_s: @start_rate_per_s,
            probe: ->(rate) { step(rate, index += 1).tap { |run| runs[rate] = run }[1] }).run
          warmup, measured, window = runs[outcome.capacity_per_s]
          @traffic&.use(window)
          Measured.new(measured: measured, warmup: warmup, metrics: metrics(outcome), sample: sample(outcome),
            warnings: [warning(outcome)].compact, problem: problem(outcome)).freeze
        end

        private

        # One step: its warmup (unless warmup_s is 0), then its measured run (with its window in the
        # request log, under traffic), the server checked after each.
        def step(rate, index)
          generator = @generator.call(rate)
          label = format("#{LABEL}-%02d", index)
          warmup = nil
          if @settings["warmup_s"].positive?
            warmup = @run.call(generator, @settings["warmup_s"], "#{label}-warmup")
            @check.call("during the warmup of capacity step #{index} (#{rate_text(rate)})")
          end
          @traffic&.start
          measured = @run.call(generator, @settings["step_s"], label)
          @check.call("during capacity step #{index} (#{rate_text(rate)})")
          [warmup, measured, @traffic&.finish]
        end

        def metrics(outcome)
          server = outcome.server_limited?
          {"capacity_per_s" => server ? outcome.capacity_per_s : nil, "capacity_failed_at_per_s" => server ? outcome.failed_at_per_s : nil,
           "capacity_steps" => outcome.steps.size}.compact
        end

        def sample(outcome)
          {"objective" => @objective.to_s, "percentile" => @objective.percentile, "bound_s" => @objective.bound_s, "start_rate_per_s" => @start_rate_per_s, "limit" => outcome.limit,
           "capacity_per_s" => outcome.capacity_per_s, "failed_at_per_s" => outcome.failed_at_per_s,
           "steps" => outcome.steps.map(&:to_h)}.merge(@settings.slice("growth", "resolution", "tolerance", "step_s", "warmup_s")).compact
        end

        # What the capacity found means when the server did not set it.
        def warning(outcome)
          return nil if outcome.capacity_per_s.nil? || outcome.server_limited?
          at_least = "the server sustains at least #{rate_text(outcome.capacity_per_s)} at #{@objective}, so this batch records no capacity_per_s"
          if outcome.limit == CapacitySearch::GENERATOR
            "the load generator fell behind at #{rate_text(outcome.failed_at_per_s)} before the server missed its objective: #{at_least}; give httperf more --load-cpus"
          else
            "the capacity search used its #{@settings["max_steps"]} steps before it narrowed the capacity to #{format("%g%%", @settings["resolution"] * 100)}: " \
              "#{at_least}; raise capacity: max_steps or start_rate_per_s"
          end
        end

        def problem(outcome)
          return nil if outcome.capacity_per_s
          lowest = outcome.steps.min_by(&:rate_per_s)
          "no offered rate down to #{rate_text(lowest.rate_per_s)} met #{@objective} (there: #{lowest.miss}); lower capacity: start_rate_per_s or relax slo"
        end

        def rate_text(rate) = "#{format("%.4g", rate)}/s"
      end
    end
  end
end
