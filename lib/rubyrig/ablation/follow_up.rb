# One follow-up run: the original experiment narrowed to one difference's cell on its two runtimes, with
# one switch applied, a fixed number of batches and no stopping rule, diagnostic batches or sharding of
# its own; run as an ordinary run in its folder under why/, resumed when an earlier `rubyrig why` was
# interrupted, and read as it is when it finished.
require "fileutils"

module Rubyrig
  module Ablation
    class FollowUp
      # Keys of the original experiment a follow-up does not take: it has its own batches and no looks,
      # traces or profiles (they would cost budget and measure nothing of the gap).
      DROPPED = %w[until max_batches max_time trace profile workload workloads runtimes baseline batches name].freeze
      # Nor GVL hooks: they slow the runtimes that have them (CRuby 3.2+) and not the others, which
      # would move the very ratio a follow-up measures.
      SET = {"gvl" => false}.freeze

      # run: the original run's Results::RunMeta; runtimes: its Experiment::Runtime by label;
      # runner_for: ->(experiment, raw) { a Run::Runner }; command_line: the `rubyrig why` that starts
      # the follow-ups, recorded in each.
      def initialize(run:, runtimes:, runner_for:, command_line:)
        @run = run
        @runtimes = runtimes
        @runner_for = runner_for
        @command_line = command_line
      end

      def self.finished?(dir) = File.file?(File.join(dir, Results::Store::RUN_FILE)) && !Results::Store.open(dir).run.finished_at.nil?

      # The follow-up's experiment data. entry: the workload's entry in the original experiment; known:
      # the parameters the workload takes (others in a cell's key, such as a benchmark-ips item, are not).
      def raw(difference, switch, entry, known:, batches:)
        params = difference.params.slice(*known).transform_values { |v| [v] }.merge(switch.params)
        runtimes = [difference.reference, difference.runtime].map { |label| switch.runtimes.fetch(label) { Change.entry(@runtimes.fetch(label)) } }
        data = @run.experiment.except(*DROPPED).merge(
          "name" => "why-#{difference.slug}-#{switch.slug}", "runtimes" => runtimes, "baseline" => difference.reference,
          "workloads" => [entry.merge("params" => params)], "batches" => batches, **SET
        ).merge(switch.experiment)
        data.reject { |key, value| value.nil? && switch.experiment.key?(key) }
      end

      # Runs (or resumes, or reads) the follow-up in dir; returns its Results::Store.
      def run(dir, raw)
        if File.file?(File.join(dir, Results::Store::RUN_FILE))
          store = Results::Store.open(dir)
          return store if store.run.finished_at
          runner(store.run.experiment).resume(store)
          return store
        end
        FileUtils.mkdir_p(File.dirname(dir))
        runner = runner(raw)
        runner.start(dir, command: "why", command_line: @command_line)
        runner.store
      end

      private

      def runner(raw)
        experiment = Experiment.from_data(raw, label: "the follow-up of `rubyrig why`", base_dir: @run.experiment_base_dir || Dir.pwd)
        @runner_for.call(experiment, raw)
      end
    end
  end
end
