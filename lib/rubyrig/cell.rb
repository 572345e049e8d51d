# One runtime x one workload x one combination of parameters: the thing that gets batches.
module Rubyrig
  Cell = Struct.new(:index, :runtime, :workload, :params, keyword_init: true) do
    # A stable, human-readable key: "3.3.8+yjit | builtin:nbody | threads=4".
    def key
      parts = [runtime, workload]
      parts << params.map { |k, v| "#{k}=#{v}" }.join(",") unless params.empty?
      parts.join(" | ")
    end

    def params_label = params.map { |k, v| "#{k}=#{v}" }.join(" ")

    # The same workload and parameters on another runtime: the cell to compare against.
    def comparable_key = [workload, params]

    def to_h = {index: index, key: key, runtime: runtime, workload: workload, params: params}
  end
end
