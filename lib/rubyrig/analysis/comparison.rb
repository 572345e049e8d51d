# A runtime's cell against the baseline's cell with the same workload and parameters, for one metric:
# the ratio with its interval, the test, the verdict word and, when not compared, the reason.
module Rubyrig
  class Analysis
    Comparison = Struct.new(:runtime, :baseline, :workload, :params, :metric, :unit, :higher_is_better,
      :ratio, :ci, :p_value, :p_adjusted, :verdict, :reason, :n, :baseline_n, keyword_init: true) do
      def significant? = Verdict.significant?(verdict)
    end
  end
end
