# A workload's `prepare:` step (e.g. `bin/rails db:prepare`): run once per runtime before the first
# batch, as an argv in that runtime's environment (what InheritedEnv passes on, its interpreter first
# on PATH, its variants' flags in RUBYOPT, its gem set, and what the workload's driver adds, such as
# RAILS_ENV=production), in the workload's directory, with its output kept in a log. A failure stops
# the run with one line that names the step and the log.
require "fileutils"

module Rubyrig
  module Runtimes
    class PrepareStep
      # A step may build assets or migrate a database, but not hang the run forever.
      TIMEOUT_S = 1800

      # workload: its Workload; launch: the runtime's Launch; bundle_env: its gem set's environment (or
      # nil); driver_env and chdir: what the workload's driver gives the step; log_path: where its output goes.
      # inherit_env: the experiment's names of rubyrig's environment variables the step also gets.
      def initialize(workload:, launch:, bundle_env:, driver_env:, chdir:, log_path:, inherit_env: [])
        @workload = workload
        @launch = launch
        @bundle_env = bundle_env
        @driver_env = driver_env
        @chdir = chdir
        @log_path = log_path
        @inherit_env = inherit_env
      end

      def argv = @workload.prepare

      def env
        rubyopt = [*@launch.ruby_flags, @launch.runtime.env["RUBYOPT"]].compact
        Processes::InheritedEnv.withheld(@inherit_env).merge(@launch.env).merge(@bundle_env || {}).merge(@driver_env).merge(
          "RUBYOPT" => rubyopt.empty? ? nil : rubyopt.join(" "),
          "PATH" => [*@launch.bin_dirs, ENV.fetch("PATH", "")].join(File::PATH_SEPARATOR)
        )
      end

      # Runs the step to its end; returns its wall time in seconds, or raises BuildError.
      def run
        FileUtils.mkdir_p(File.dirname(@log_path))
        File.write(@log_path, "$ #{argv.join(" ")}  (in #{@chdir}, runtime #{@launch.runtime.label})\n")
        started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        child = Processes::Child.spawn(resolved_argv, env: env, chdir: @chdir, out: [@log_path, "a"], err: [@log_path, "a"])
        exit = child.wait(timeout_s: TIMEOUT_S)
        raise BuildError, failure("did not finish within #{TIMEOUT_S} s") unless exit
        raise BuildError, failure(exit.describe) unless exit.success?
        Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
      rescue ToolMissing => e
        raise BuildError, failure(e.message)
      ensure
        child&.stop
      end

      private

      # A relative program such as bin/rails is found in the workload's directory.
      def resolved_argv
        program = argv.first
        program = File.expand_path(program, @chdir) if program.include?("/") && !program.start_with?("/")
        [program, *argv.drop(1)]
      end

      def failure(how)
        "the prepare step `#{argv.join(" ")}` of #{@workload.name} failed for runtime #{@launch.runtime.label} (#{how}); see #{@log_path}"
      end
    end
  end
end
