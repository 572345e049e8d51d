# Runs a command workload's argv as one process and times it from outside; "{name}" in an argument is
# replaced by the cell's parameter of that name.
module Rubyrig
  module Kinds
    module Command
      class Driver
        # The directory a workload's command runs in, or nil for the experiment's.
        def self.chdir(workload)
          dir = workload.options["chdir"]
          dir && File.expand_path(dir, workload.base_dir)
        end

        def initialize(context)
          @context = context
        end

        def run
          process = Processes::MeasuredRun.new(@context)
          outcome = process.run(argv, env: process.env(inherit_flags: true), chdir: self.class.chdir(@context.workload))
          Result.new(
            status: outcome.ok? ? Results::Trial::OK : Results::Trial::FAILED, reason: outcome.ok? ? nil : outcome.failure_reason,
            metrics: outcome.metrics, facts: outcome.facts, samples: {},
            artifacts: %w[stdout.log stderr.log probe], warnings: outcome.warnings
          )
        end

        def argv = @context.substitute(@context.workload.target)
      end
    end
  end
end
