# One runtime x one workload x one combination of parameters: the thing that gets batches.
# effective_params are the parameters with the driver's defaults merged in, as they were at run time.
module Rubyrig
  class Experiment
    Cell = Struct.new(:index, :runtime, :workload, :params, :effective_params, keyword_init: true) do
      # A stable, human-readable key: "3.3.8+yjit | builtin:nbody | threads=4".
      def key
        parts = [runtime, workload]
        parts << params.map { |k, v| "#{k}=#{v}" }.join(",") unless params.empty?
        parts.join(" | ")
      end

      def params_label = params.map { |k, v| "#{k}=#{v}" }.join(" ")

      # The parameters the batches really ran with (the given ones when none were recorded).
      def effective = effective_params || params

      # The same workload and parameters on another runtime: the cell to compare against.
      def comparable_key = [workload, params]

      def to_h = {index: index, key: key, runtime: runtime, workload: workload, params: params, effective_params: effective_params}.compact
    end
  end
end
