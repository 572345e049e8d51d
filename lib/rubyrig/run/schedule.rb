# Runs a plan's remaining batches in plan order and appends each trial the moment it ends: the measured
# batches first (with --until decided, look by look, as long as Looks extends the plan), then the
# diagnostic ones; records in run.json when the run finished or was interrupted, with the host's load.
require "time"

module Rubyrig
  module Run
    class Schedule
      # batch: a Run::Batch (one batch -> its trial); looks: a Run::Looks.
      def initialize(store:, progress:, batch:, looks:)
        @store = store
        @progress = progress
        @batch = batch
        @looks = looks
      end

      def run(plan)
        @store.repair!
        remaining = plan.remaining(@store.trials)
        @progress.start(total: plan.batches.size, done: plan.batches.size - remaining.size)
        started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        loop do
          plan.remaining(@store.trials).reject(&:diagnostic).each { |batch| @store.append(@batch.measure(batch)) }
          plan = @looks.next_plan(plan, started) || break
        end
        plan.remaining(@store.trials).each { |batch| @store.append(@batch.measure(batch)) }
        @store.update_meta { |m| m.with(finished_at: Time.now.utc.iso8601, host_after: host_after) }
        @progress.finish
        @store
      rescue Interrupt
        @progress.interrupted
        @store.update_meta { |m| m.with(interrupted_at: Time.now.utc.iso8601, host_after: host_after) }
        raise
      end

      private

      def host_after = {"load_average" => Processes::Host.new.load_average}
    end
  end
end
