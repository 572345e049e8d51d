# `rubyrig why` from start to end for one finished run: its decided differences, the switches of each,
# the plan within the budget, then each follow-up run in turn (progress says what is tried and why),
# read back through the one analysis, and an Answer per difference. The budget is kept as the run goes:
# a follow-up whose estimate no longer fits the time left is skipped with that reason.
module Rubyrig
  module Ablation
    class Investigation
      # What a row keeps of a follow-up's Analysis::Comparison.
      NUMBERS = %i[ratio ci confidence p_adjusted df verdict reason method_name margin n baseline_n].freeze

      # store: the original run's Results::Store; summary: its summary.json as a Hash; kinds: the kind
      # registry; runner_for: ->(experiment, raw) { a Run::Runner }; progress: where lines go (#note).
      def initialize(store:, summary:, kinds:, runner_for:, progress:, budget_s:, batches: nil, command_line: [],
        clock: -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) })
        @store = store
        @run = store.run
        @summary = summary
        @kinds = kinds
        @progress = progress
        @budget_s = budget_s
        @clock = clock
        @experiment = Experiment.from_data(@run.experiment, label: "#{store.dir}/run.json", base_dir: @run.experiment_base_dir || Dir.pwd)
        @batches = batches || @experiment.batches
        @follow_up = FollowUp.new(run: @run, runtimes: @experiment.runtimes.to_h { |r| [r.label, r] }, runner_for: runner_for, command_line: command_line)
      end

      def differences
        labels = @experiment.runtimes.map(&:label)
        Difference.all(@summary).select { |d| labels.include?(d.runtime) && labels.include?(d.reference) && workload(d) }
      end

      # The plan of follow-ups for these differences within the budget.
      def plan(list = differences)
        cost = Cost.new(trials: @store.trials, run: @run)
        candidates = list.map { |d| [d, Switches.new(context(d)).list] }
        Plan.build(candidates, budget_s: @budget_s, estimate: ->(d, s) { cost.estimate_s(d, s, @batches) },
          done: ->(dir) { FollowUp.finished?(File.join(@store.dir, dir)) })
      end

      # Runs the plan and returns an Answer per difference.
      def call
        list = differences
        planned = plan(list)
        announce(list, planned)
        started = @clock.call
        rows = Hash.new { |h, k| h[k] = [] }
        late = []
        planned.steps.each do |step|
          left = @budget_s - (@clock.call - started)
          if step.estimate_s > left || late.any? { |k| Plan.dir(k.difference, k.switch) == step.dir }
            late << Plan::Skip.new(difference: step.difference, switch: step.switch, reason: "the budget ran out (#{Plan.duration([left, 0].max)} left)").freeze
          else
            rows[step.difference].concat(measure(step))
          end
        end
        list.map { |d| Answer.build(d, rows[d], (planned.skipped + late).select { |s| s.difference == d }) }
      end

      private

      def workload(difference) = @experiment.workloads.find { |w| w.name == difference.workload }

      def context(difference)
        cell = @run.cells.find { |c| c.key == difference.cell }
        Context.new(difference: difference, effective_params: cell ? cell.effective : difference.params,
          kind: @kinds.fetch(workload(difference).kind), runtimes: @experiment.runtimes.to_h { |r| [r.label, r] },
          interpreters: @run.runtime_labels.to_h { |l| [l, @run.interpreter(l)] }, cpus: @experiment.cpus,
          cpu_count: @run.host["cores"], evidence: Evidence.new(@summary, difference)).freeze
      end

      def announce(list, planned)
        list.each do |d|
          @progress.note("Why #{d.title}: #{d.verdict} #{Evidence.ratio(d.ratio, d.ci)}#{" (#{d.line})" if d.line}")
          planned.steps.select { |s| s.difference == d }.each do |s|
            @progress.note("  #{s.switch.reason} (#{s.free || "about #{Plan.duration(s.estimate_s)}"})")
          end
          planned.skipped.select { |s| s.difference == d }.each { |s| @progress.note("  skipped #{s.switch.label}: #{s.reason}") }
        end
      end

      def measure(step)
        d = step.difference
        @progress.note("Why #{d.runtime} against #{d.reference}: #{step.switch.reason}") unless @reports&.key?(step.dir)
        found = follow_up_report(step).comparisons.select { |c| c.runtime == d.runtime && c.baseline == d.reference && c.metric == d.metric }
        found.empty? ? [row(step, nil, reason: "the follow-up compared nothing (no ok batches on one side)")] : found.map { |c| row(step, c) }
      rescue Error => e # a follow-up that cannot run (no libjemalloc, a runtime gone) is a row saying why, not the end of `rubyrig why`
        [row(step, nil, reason: "the follow-up could not run: #{e.message}")]
      end

      # The follow-up's report, run once for every metric of its cell.
      def follow_up_report(step)
        (@reports ||= {})[step.dir] ||= begin
          store = @follow_up.run(File.join(@store.dir, step.dir), follow_up_raw(step))
          reading = store.read_trials
          Analysis.new.analyze(meta: store.meta, trials: reading.trials, skipped: reading.skipped)
        end
      end

      def follow_up_raw(step)
        workload = workload(step.difference)
        entries = @run.experiment["workloads"] || [@run.experiment["workload"]]
        known = workload.params.keys | @kinds.fetch(workload.kind).default_params.keys
        @follow_up.raw(step.difference, step.switch, entries[@experiment.workloads.index(workload)], known: known, batches: @batches)
      end

      def row(step, comparison, reason: nil)
        switch = step.switch
        point = comparison ? comparison.params.slice(*switch.params.keys) : {}
        at = point.empty? ? switch.at : "#{switch.at} #{Analysis::Section.params_text(point)}"
        numbers = comparison ? comparison.to_h.slice(*NUMBERS) : {reason: reason}
        row = Answer::Row.new(switch: switch.label, name: switch.name, point: point, at: at, was: switch.was, why: switch.reason, dir: step.dir, **numbers)
        row.share = Share.of(step.difference, row)
        row.outcome = Outcome.of(step.difference, row, row.share)
        row.advice = Outcome.advice(step.difference, row, row.share, row.outcome)
        row.freeze
      end
    end
  end
end
