# The one verdict pipeline of every comparison in a report (runtimes against the baseline, connection
# modes, sweep values): contrast each pair of batch samples, correct for the family's multiplicity,
# and turn each into a verdict word, or refuse it with the reason. Pure: no I/O.
module Rubyrig
  class Analysis
    module Contrasts
      # The outcome of one contrast: other against base, as a ratio with its interval and test.
      Decided = Struct.new(:ratio, :ci, :p_value, :p_adjusted, :verdict, :reason, :n, :baseline_n,
        keyword_init: true) do
        def compared? = verdict != Verdict::NOT_COMPARED
      end

      module_function

      # family: [{base: [Float], other: [Float]}, ...], the comparisons that answer one question (so that
      # they are corrected together); definition: the Metrics::Definition of the values.
      def decide(family, definition:, rng:, alpha: 0.05, resamples: 10_000)
        raw = family.map { |c| contrast(c[:base], c[:other], definition, rng, resamples) }
        adjusted = Stats.holm(raw.map { |r| r[:p_value] })
        raw.zip(adjusted, family).map do |r, p_adjusted, c|
          verdict = r[:reason] ? Verdict::NOT_COMPARED : Verdict.word(direction(r, p_adjusted, alpha), definition)
          Decided.new(**r, p_adjusted: p_adjusted, verdict: verdict, n: c[:other].size, baseline_n: c[:base].size).freeze
        end
      end

      def contrast(base, other, definition, rng, resamples)
        if base.empty? || other.empty?
          return {reason: "no ok batches on #{base.empty? ? "the reference" : "this"} side"}
        end
        zero = (base + other).find { |v| v <= 0 }
        return {reason: "a batch reported #{zero}, and a ratio needs positive values"} if zero
        rate = definition.rate
        {
          ratio: Stats.ratio(base, other, rate: rate),
          ci: Stats.bootstrap_ratio_ci(base, other, rate: rate, rng: rng, resamples: resamples),
          p_value: Stats.permutation_p_value(base, other, rate: rate, rng: rng)
        }
      end

      # Both the adjusted p-value and the interval must agree before a difference is claimed.
      def direction(r, p_adjusted, alpha)
        Stats.direction(ratio: r[:ratio], ci: r[:ci], p_adjusted: p_adjusted, alpha: alpha)
      end
    end
  end
end
