# The looks of a sequential run (--until decided): after the batches planned so far, analyses what is
# measured and either extends the plan by rounds up to the next look (recorded in run.json) or stops,
# when every primary comparison is decided or the batches or the time are used up.
module Rubyrig
  module Run
    class Looks
      def initialize(experiment:, store:, progress:)
        @experiment = experiment
        @store = store
        @progress = progress
      end

      # The plan with rounds up to the next look, or nil when the run is not sequential or stops here;
      # started: the monotonic time the run's schedule began.
      def next_plan(plan, started)
        decision = @store.run.decision
        return nil unless decision.until_decided
        states = primary_states
        @progress.note("Look at #{plan.rounds} batches per cell: #{states.map { |s| s[:text] }.join("; ")}") unless states.empty?
        return nil if states.all? { |s| Analysis::Verdict.decided?(s[:verdict]) }
        following = Analysis::Sequential.new(min_batches: @experiment.batches, max_batches: decision.max_batches).next_look(plan.rounds)
        return nil unless following
        return nil if out_of_time?(decision, started)
        longer = plan.extended(following)
        @store.update_meta { |m| m.with(plan: longer.to_h.transform_keys(&:to_s)) }
        @progress.grow(total: longer.batches.size)
        longer
      end

      private

      def out_of_time?(decision, started)
        return false unless decision.max_time_s && Process.clock_gettime(Process::CLOCK_MONOTONIC) - started > decision.max_time_s
        @progress.note("Stopping: --max-time #{decision.max_time_s.round} s is used up with comparisons undecided")
        true
      end

      # The verdict of every primary comparison so far, each with a short text for the progress line.
      def primary_states
        report = Analysis.new.analyze(meta: @store.meta, trials: @store.trials)
        report.comparisons.select { |c| c.metric == report.primary_metric(c.workload) }.map do |c|
          params = c.params.map { |k, v| "#{k}=#{v}" }.join(",")
          where = [c.runtime, c.workload, (params unless params.empty?)].compact.join(" | ")
          ratio = c.ratio ? format(" %.3fx", c.ratio) : ""
          {verdict: c.verdict, text: "#{where} #{c.verdict}#{ratio}"}
        end
      end
    end
  end
end
