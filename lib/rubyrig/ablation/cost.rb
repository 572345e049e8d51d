# How long a follow-up run will take, estimated from the original run: the mean duration of its
# batches of the same cell on each runtime, times the batches and cells the follow-up plans, times the
# run's own overhead between batches (its elapsed time over the batches' time), plus a run's start.
require "time"

module Rubyrig
  module Ablation
    class Cost
      # Resolving interpreters, checking gem sets and writing run.json, before the first batch.
      RUN_START_S = 5.0
      # The overhead factor is kept within these bounds (a run that installed gem sets first would
      # otherwise make every follow-up look long).
      OVERHEAD = (1.0..3.0)

      # trials: the run's Results::Trial list; run: its Results::RunMeta.
      def initialize(trials:, run:)
        measured = trials.select { |t| t.duration_s.is_a?(Numeric) && t.ok? && t.measured? }
        @by_cell = measured.group_by(&:cell_key).transform_values { |list| list.sum(&:duration_s) / list.size }
        @mean_s = measured.empty? ? 0.0 : measured.sum(&:duration_s) / measured.size
        @overhead = overhead(run, measured)
      end

      def estimate_s(difference, switch, batches)
        per_batch = [difference.reference, difference.runtime].sum do |label|
          key = Experiment::Cell.new(runtime: label, workload: difference.workload, params: difference.params).key
          @by_cell.fetch(key, @mean_s)
        end
        RUN_START_S + per_batch * switch.cells * batches * @overhead
      end

      private

      def overhead(run, measured)
        busy = measured.sum(&:duration_s)
        return OVERHEAD.min unless run.created_at && run.finished_at && busy.positive?
        elapsed = Time.iso8601(run.finished_at) - Time.iso8601(run.created_at)
        (elapsed / busy).clamp(OVERHEAD.min, OVERHEAD.max)
      rescue ArgumentError # a time run.json did not record in ISO 8601: no overhead known
        OVERHEAD.min
      end
    end
  end
end
