# The one verdict pipeline of every comparison in a report (runtimes against the baseline, connection
# modes, sweep values): contrast each pair of batch samples with Inference (t on log values, paired by
# round where the rounds hold both cells and Welch's otherwise, one interval that is also the test, Bonferroni over the family and the looks of a sequential run; within
# each host and combined when the batches come from several; "appeared" or "disappeared" for a metric
# other than speed that is 0 in every batch on one side), and turn each decision into a verdict word
# with its reason. Pure: no I/O.
module Rubyrig
  class Analysis
    module Contrasts
      # The outcome of one contrast: other against base, as a ratio with the interval decided on.
      Decided = Struct.new(:ratio, :ci, :confidence, :p_value, :p_adjusted, :verdict, :reason, :method_name,
        :margin, :n, :baseline_n, :hosts, :heterogeneity, :paired, :caveats, :appearance, keyword_init: true) do
        def compared? = verdict != Verdict::NOT_COMPARED
      end

      module_function

      # family: [{base: [Float], other: [Float], base_hosts: [String], other_hosts: [String],
      # base_rounds: [Integer], other_rounds: [Integer]}, ...], the comparisons that answer one question
      # (so that they are corrected together), with the host and the round of each value (optional); definition: the Metrics::Definition of the values; margin: the
      # equivalence margin (0.02 is ±2%); looks: how many times a sequential run may decide (1 without).
      def decide(family, definition:, margin:, looks: 1, alpha: 0.05)
        contrasts = family.map { |c| c.slice(*Inference::DATA_KEYS) }
        Inference.family(contrasts, alpha: alpha, margin: margin, looks: looks, count: definition.count?,
          appear: !definition.speed?).map do |r|
          Decided.new(ratio: r.ratio, ci: r.ci, confidence: r.confidence, p_value: r.p_value, p_adjusted: r.p_adjusted,
            verdict: Verdict.word(r.decision, definition), reason: r.reason, method_name: r.method, margin: margin,
            n: r.n, baseline_n: r.baseline_n, hosts: r.hosts, heterogeneity: r.heterogeneity, paired: r.paired,
            caveats: r.caveats, appearance: r.appearance).freeze
        end
      end
    end
  end
end
