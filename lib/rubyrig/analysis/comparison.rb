# The one shape of every comparison in a report (runtimes against the baseline, benchmark-ips items,
# sweep values, connection modes, a Rails app against its Rack twin), for one metric: the ratio with
# the interval decided on (at `confidence`, from a t on `df` degrees of freedom), the test, the
# verdict word, the reason (what would decide an inconclusive one, or why it was not compared), the
# method and the equivalence margin, how many
# batches each side counted; for batches from several hosts, each host's ratio (Strata::Stratum) and
# whether they disagree (Strata::Heterogeneity), nil otherwise; whether the batches were paired by
# round, the edges the test met (Inference::CAVEATS keys), and for "appeared"/"disappeared" the counts
# (Appearance::Counts). `runtime` against `baseline` are the
# runtimes; when both sides run on one runtime, `other` against `reference` say what differs (a
# connection mode against keepalive, a swept value against the first, the Rails app against the Rack
# app), nil for a comparison of runtimes.
module Rubyrig
  class Analysis
    Comparison = Struct.new(:runtime, :baseline, :workload, :params, :metric, :unit, :higher_is_better,
      :ratio, :ci, :confidence, :p_value, :p_adjusted, :df, :verdict, :reason, :method_name, :margin, :n, :baseline_n,
      :hosts, :heterogeneity, :paired, :caveats, :appearance, :other, :reference, keyword_init: true) do
      def significant? = Verdict.significant?(verdict)

      def compared? = verdict != Verdict::NOT_COMPARED
    end
  end
end
