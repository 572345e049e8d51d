# Everything a driver needs to measure one batch: the batch and its cell, the workload, how to launch
# the runtime, where artifacts go, CPU pinning (and the server/load generator split given on the
# command line), the deadline and the gem set.
module Rubyrig
  module Drivers
    Context = Struct.new(:batch, :workload, :launch, :artifacts_dir, :cpus, :timeout_s, :bundle_env,
      :server_cpus, :load_cpus, keyword_init: true) do
      def cell = batch.cell

      def params = cell.params

      # Parameters for the in-process harness, one "key=value" per line.
      def params_env = params.map { |k, v| "#{k}=#{v}" }.join("\n")
    end
  end
end
