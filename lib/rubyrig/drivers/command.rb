# Runs any argv as a whole process under the runtime's environment and times it from outside, like
# hyperfine. "{name}" in an argument is replaced by the cell's parameter of that name.
module Rubyrig
  module Drivers
    class Command < Base
      def self.option_keys = %w[chdir]

      def self.load_options(entry, _builtin, fail, _target = nil)
        chdir = entry["chdir"]
        return {} if chdir.nil?
        fail.call(["chdir"], "must be a directory path") unless chdir.is_a?(String)
        {"chdir" => chdir}
      end

      def self.primary_metric(_workload) = "wall_s"

      # The program must exist for the runtime (its bin directory comes first on PATH), else every
      # batch would fail the same way; a placeholder such as "{tool}" is checked by the batch itself.
      def self.preflight(workload, launch)
        program = workload.target.first
        return if program.include?("{")
        chdir = workload.options["chdir"] && File.expand_path(workload.options["chdir"], workload.base_dir)
        candidate = (program.include?("/") && chdir) ? File.expand_path(program, chdir) : program
        path = [*launch.bin_dirs, ENV.fetch("PATH", "")].join(File::PATH_SEPARATOR)
        return if Processes::Which.find(candidate, path: path)
        raise ToolMissing, "cannot run the command workload: #{program} is not an executable on PATH for #{launch.runtime.label}; check the command or install it"
      end

      def run
        process = ProcessRun.new(@context)
        outcome = process.run(argv, env: process.env(inherit_flags: true), chdir: chdir)
        Base::Result.new(
          status: outcome.ok? ? Results::Trial::OK : Results::Trial::FAILED, reason: outcome.ok? ? nil : outcome.failure_reason,
          metrics: outcome.metrics, facts: outcome.facts, samples: {},
          artifacts: %w[stdout.log stderr.log probe], warnings: outcome.warnings
        )
      end

      def argv
        @context.workload.target.map do |arg|
          arg.gsub(/\{(\w+)\}/) { @context.params.fetch(Regexp.last_match(1), Regexp.last_match(0)).to_s }
        end
      end

      private

      def chdir
        dir = @context.workload.options["chdir"]
        dir && File.expand_path(dir, @context.workload.base_dir)
      end
    end
  end
end
