# Everything a kind's driver needs to measure one batch: the batch and its cell, the workload, how to
# launch the runtime, where artifacts go, CPU pinning (and the server/load generator split given on the
# command line), the deadline, the gem set, the diagnostics to load and the environment variables the
# experiment passes on. The parameters are the cell's effective ones, exactly as the plan recorded them.
module Rubyrig
  module Kinds
    # inherit_env: the experiment's names of rubyrig's environment variables the processes also get.
    Context = Struct.new(:batch, :workload, :launch, :artifacts_dir, :cpus, :timeout_s, :bundle_env,
      :diagnostics, :server_cpus, :load_cpus, :inherit_env, keyword_init: true) do
      def cell = batch.cell

      # The parameters the batch runs with: those the plan recorded for the cell (its kind's defaults
      # merged in when the plan was made); a format 1 run recorded none, so its kind merges them now.
      def params = cell.effective_params || Kinds.fetch(workload.kind).effective_params(cell.params)

      # The same context with some members replaced (another artifacts directory, a shorter deadline).
      def with(**changes) = self.class.new(**to_h, **changes)

      # Parameters for the in-process harness, one "key=value" per line; "%", "=", CR and LF in a key or
      # a value are written as %25, %3D, %0D and %0A (probe/params.rb reads them back), so that any
      # value arrives as it was given.
      def params_env = params.map { |k, v| "#{Context.escape_param(k)}=#{Context.escape_param(v)}" }.join("\n")

      def self.escape_param(text) = text.to_s.gsub(/[%=\r\n]/) { |c| format("%%%02X", c.ord) }

      # `args` with each "{name}" replaced by the parameter of that name (left as it is when none).
      def substitute(args) = args.map { |arg| arg.gsub(/\{(\w+)\}/) { params.fetch(Regexp.last_match(1), Regexp.last_match(0)).to_s } }

      # The argv that starts the runtime's Ruby with its flags, its gem set loaded when it has one,
      # then `rest` (a file or -e and its arguments): the one way rubyrig starts a measured Ruby.
      # bundler_setup: false leaves activating the gem set to the program (ruby-bench's use_gemfile).
      def ruby_argv(*rest, bundler_setup: true)
        [launch.interpreter.path, *launch.ruby_flags, *((bundle_env && bundler_setup) ? ["-rbundler/setup"] : []), *rest]
      end
    end
  end
end
