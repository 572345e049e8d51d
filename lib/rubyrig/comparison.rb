# A runtime's cell against the baseline's cell with the same workload and parameters, for one metric.
module Rubyrig
  Comparison = Struct.new(:runtime, :baseline, :workload, :params, :metric, :unit, :higher_is_better,
    :ratio, :ci, :p_value, :p_adjusted, :verdict, :n, :baseline_n, keyword_init: true) do
    def significant? = verdict != "no significant difference"
  end
end
