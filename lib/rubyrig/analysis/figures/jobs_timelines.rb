# Jobs completed over time: for each jobs workload and parameters, per runtime every batch's
# cumulative count of finished jobs since the gate opened (from the per-job records the batch kept),
# the median time at which half, nine tenths and all of the jobs had finished, the median phases of a
# batch (enqueue, boot, waiting at the gate, drain) measured from the enqueue's start, and the median
# length of each phase.
module Rubyrig
  class Analysis
    class Figures
      class JobsTimelines < Builder
        QUANTILES = [0.5, 0.9, 1.0].freeze

        Plot = Struct.new(:workload, :params, :jobs, :drain_axis, :phase_axis, :count_axis, :runtimes, keyword_init: true)
        Runtime = Struct.new(:runtime, :cell_key, :batches, :phases, :durations, :finished_by, keyword_init: true)
        # Each phase's start and end in a batch's timeline (seconds from the gate).
        PHASES = {"enqueue" => %w[enqueue_start_s enqueue_end_s], "boot" => %w[boot_start_s ready_s],
                  "gate" => ["ready_s", nil], "drain" => %w[first_start_s last_finish_s]}.freeze

        def figures
          jobs = @report.cells.select { |c| @report.run.workload(c.workload).kind == "jobs" }
          jobs.group_by { |c| [c.workload, c.params] }.filter_map do |(workload, params), cells|
            runtimes = cells.filter_map { |cell| runtime(cell) }
            next if runtimes.empty?
            batches = runtimes.flat_map(&:batches)
            total = batches.map { |b| b["completed"].last }.max
            Plot.new(workload: workload, params: params, jobs: total,
              drain_axis: Axis.fit(batches.map { |b| b["times"].last }, unit: "s", zero: true),
              phase_axis: Axis.fit(runtimes.map { |r| r.phases["drain"].last }, unit: "s", zero: true),
              count_axis: Axis.fit([total], unit: "", zero: true, integer: true), runtimes: runtimes).freeze
          end
        end

        private

        def runtime(cell)
          timelines = trials(cell).filter_map { |t| t.samples&.dig("jobs_timeline")&.merge("batch_id" => t.batch_id) }
          return nil if timelines.empty?
          batches = timelines.map { |tl| cumulative(tl) }
          durations = PHASES.to_h do |name, (from, to)|
            [name, Stats.median(timelines.map { |tl| (to ? tl[to] : 0.0) - tl[from] })]
          end
          Runtime.new(runtime: cell.runtime, cell_key: cell.key, batches: batches, phases: phases(timelines), durations: durations,
            finished_by: QUANTILES.to_h { |q| [q, Stats.median(batches.map { |b| finished_by(b, q) })] }).freeze
        end

        # {batch_id, times, completed}: jobs finished by the end of each slice, from (0, 0) at the gate.
        def cumulative(timeline)
          width = timeline["bucket_s"]
          sums = timeline["completed"].each_with_object([0]) { |count, acc| acc << acc.last + count }
          {"batch_id" => timeline["batch_id"], "times" => (0...sums.size).map { |i| i * width }, "completed" => sums}
        end

        # The end of the first slice by which a share q of the batch's jobs had finished.
        def finished_by(batch, q)
          goal = batch["completed"].last * q
          batch["times"][batch["completed"].index { |c| c >= goal }]
        end

        # Median start and end of each phase, in seconds from the enqueue's start.
        def phases(timelines)
          since = ->(key) { Stats.median(timelines.map { |tl| tl[key] - tl["enqueue_start_s"] }) }
          {"enqueue" => [0.0, since.call("enqueue_end_s")], "boot" => [since.call("boot_start_s"), since.call("ready_s")],
           "gate" => [since.call("ready_s"), Stats.median(timelines.map { |tl| -tl["enqueue_start_s"] })],
           "drain" => [since.call("first_start_s"), since.call("last_finish_s")]}
        end
      end
    end
  end
end
