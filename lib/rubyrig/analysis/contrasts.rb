# The one verdict pipeline of every comparison in a report (runtimes against the baseline, connection
# modes, sweep values, the Rails overhead): contrast each pair of batch samples with Inference (t on
# log values, paired by round where the rounds hold both cells and Welch's otherwise, one interval that
# is also the test, Bonferroni over the family and the looks of a sequential run; within each host and
# combined when the batches come from several; "appeared" or "disappeared" for a metric other than
# speed that is 0 in every batch on one side), and turn each decision into a Comparison with its
# verdict word and reason. Pure: no I/O.
module Rubyrig
  class Analysis
    module Contrasts
      # What a family member names besides its data: the Comparison's labels.
      LABELS = %i[runtime baseline workload params other reference].freeze

      module_function

      # family: [{runtime:, baseline:, workload:, params:, (other:, reference:), base: [Float], other_values:
      # [Float], base_hosts: [String], other_hosts: [String], base_rounds: [Integer], other_rounds:
      # [Integer]}, ...], the comparisons that answer one question (so that they are corrected
      # together), with the host and the round of each value (optional);
      # metric: the name of the values' Metrics definition; margin: the equivalence margin (0.02 is
      # ±2%); looks: how many times a sequential run may decide (1 without). Returns a Comparison each.
      def decide(family, metric:, margin:, looks: 1, alpha: 0.05)
        definition = Metrics.fetch(metric)
        contrasts = family.map { |c| c.except(*LABELS, :other_values).merge(other: c.fetch(:other_values)) }
        results = Inference.family(contrasts, alpha: alpha, margin: margin, looks: looks, count: definition.count?, appear: !definition.speed?)
        results.zip(family).map do |r, c|
          Comparison.new(**c.slice(*LABELS), metric: metric, unit: definition.unit, higher_is_better: definition.higher_is_better,
            ratio: r.ratio, ci: r.ci, confidence: r.confidence, p_value: r.p_value, p_adjusted: r.p_adjusted, df: r.df,
            verdict: Verdict.word(r.decision, definition), reason: r.reason, method_name: r.method, margin: margin,
            n: r.n, baseline_n: r.baseline_n, hosts: r.hosts, heterogeneity: r.heterogeneity, paired: r.paired,
            caveats: r.caveats, appearance: r.appearance).freeze
        end
      end
    end
  end
end
