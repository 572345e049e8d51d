# The search for the highest offered rate a server sustains (pure; the probe runs the load): from a
# start rate it grows geometrically until a step is not sustained (or shrinks until one is), then
# bisects geometrically between the highest sustained rate and the lowest unsustained one until they are
# within the resolution. A rate the server fails is tried twice. A step is sustained when the generator kept up with the rate (it started the
# requests when due), the objective held, and the responses came back within the tolerance of the rate
# the requests were started at (no backlog grew).
module Rubyrig
  module Kinds
    module Http
      class CapacitySearch
        # Fewer requests than this in a step cannot show a tail: the search shrinks no further.
        MIN_REQUESTS = 20
        GENERATOR = "load generator"
        OBJECTIVE = "objective"
        STEPS = "max_steps"

        # One probed rate: what the generator measured there, and nil or why it was not sustained.
        Step = Struct.new(:rate_per_s, :measured, :miss, keyword_init: true) do
          def sustained? = miss.nil?

          # The step as the batch's samples keep it (seconds, rates per second).
          def to_h
            latency = measured.latency_s.compact.to_h { |name, value| ["latency_#{name}_s", value] }
            {"offered_rate_per_s" => rate_per_s, "achieved_rate_per_s" => measured.achieved_rate_per_s,
             "answered_per_s" => measured.requests.fdiv(measured.duration_s), "error_rate" => measured.error_rate,
             "behind" => measured.behind ? true : false, "sustained" => sustained?, "miss" => miss}.merge(latency).compact
          end
        end

        # capacity_per_s: the highest sustained rate (nil when none was); failed_at_per_s: the lowest that
        # was not (nil when none failed); limit: why that one failed (GENERATOR, OBJECTIVE), or STEPS when
        # the steps ran out first; steps: every Step in the order probed.
        Outcome = Struct.new(:capacity_per_s, :failed_at_per_s, :limit, :steps, keyword_init: true) do
          # The capacity is the server's: the objective, not the generator or the step budget, stopped it.
          def server_limited? = !capacity_per_s.nil? && limit == OBJECTIVE
        end

        # settings: Capacity's settings; objective: an Objective; start_rate_per_s: the first rate;
        # probe: rate -> a measurement (offered_rate_per_s, achieved_rate_per_s: the rate requests were
        # started at, behind, requests answered, duration_s, latency_s, error_rate), e.g. the
        # Load::Result of an open-loop run at that rate.
        def initialize(settings:, objective:, start_rate_per_s:, probe:)
          @settings = settings
          @objective = objective
          @start = start_rate_per_s
          @probe = probe
        end

        def run
          steps = []
          low = high = nil
          rate = @start.to_f
          loop do
            step = probe(rate, steps)
            step.sustained? ? low = rate : high = rate
            rate = next_rate(low, high)
            break if rate.nil? || steps.size >= @settings["max_steps"]
          end
          Outcome.new(capacity_per_s: low, failed_at_per_s: high, limit: limit(steps, low, high), steps: steps.freeze).freeze
        end

        # nil when the measurement sustains the rate, else why not.
        def miss(measured)
          return "the load generator fell behind the offered rate" if measured.behind
          missed = @objective.miss(measured.latency_s, measured.error_rate)
          return missed if missed
          backlog(measured)
        end

        private

        # nil, or why the answers fell behind the requests started by more than the tolerance. A steady
        # server still has its rate times its mean latency in flight when the run stops, which counts as
        # short here: step_s must be long beside the latencies (docs/capacity.md).
        def backlog(measured)
          served = measured.requests.fdiv(measured.duration_s)
          short = 1 - served / measured.achieved_rate_per_s
          return nil if short <= @settings["tolerance"]
          format("answered %.4g/s, %.1f%% below the %.4g/s started (a backlog grew)", served, short * 100, measured.achieved_rate_per_s)
        end

        # One rate's step; a step the server failed is run once more and counts only when that fails
        # too, so that one stall of a busy host (the server held off its CPU for half a second) does not
        # end the search far below capacity. Both are kept.
        def probe(rate, steps)
          steps << judge(rate, @probe.call(rate))
          return steps.last if steps.last.sustained? || steps.last.measured.behind || steps.size >= @settings["max_steps"]
          steps << judge(rate, @probe.call(rate))
          steps.last
        end

        def judge(rate, measured) = Step.new(rate_per_s: rate, measured: measured, miss: miss(measured)).freeze

        # Grow until a step fails, shrink until one holds, then bisect; nil when done.
        def next_rate(low, high)
          return low * @settings["growth"] if high.nil?
          if low.nil?
            rate = high / @settings["growth"]
            return (rate * @settings["step_s"] >= MIN_REQUESTS) ? rate : nil
          end
          (high / low <= 1 + @settings["resolution"]) ? nil : Math.sqrt(low * high)
        end

        def limit(steps, low, high)
          return STEPS if high.nil? || (low && high / low > 1 + @settings["resolution"])
          steps.find { |s| s.rate_per_s == high }.measured.behind ? GENERATOR : OBJECTIVE
        end
      end
    end
  end
end
