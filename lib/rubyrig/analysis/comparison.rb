# A runtime's cell against the baseline's cell with the same workload and parameters, for one metric:
# the ratio with the interval decided on (at `confidence`), the test, the verdict word, the reason (what
# would decide an inconclusive one, or why it was not compared), the method and the equivalence margin;
# for batches from several hosts, each host's ratio (Strata::Stratum) and whether they disagree
# (Strata::Heterogeneity), nil otherwise; whether the batches were paired by round, the edges the test
# met (Inference::CAVEATS keys), and for "appeared"/"disappeared" the counts (Appearance::Counts).
module Rubyrig
  class Analysis
    Comparison = Struct.new(:runtime, :baseline, :workload, :params, :metric, :unit, :higher_is_better,
      :ratio, :ci, :confidence, :p_value, :p_adjusted, :verdict, :reason, :method_name, :margin, :n, :baseline_n,
      :hosts, :heterogeneity, :paired, :caveats, :appearance, keyword_init: true) do
      def significant? = Verdict.significant?(verdict)
    end
  end
end
