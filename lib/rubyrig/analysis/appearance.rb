# What appears from zero: a metric that is 0 in every batch on one side and not on the other (errors,
# non-2xx responses, timeouts, failed checks, major GCs) has no ratio to test, so it gets a verdict of
# its own, :appeared or :disappeared, with the counts per batch on each side, how many batches had any,
# and Fisher's exact test on those batch counts (is "some batches had any" more than chance?). Pure.
module Rubyrig
  class Analysis
    module Appearance
      # Means per batch, batches with a value above 0, batch counts, and Fisher's two-sided p on the
      # 2x2 table of batches with and without any.
      Counts = Struct.new(:base_per_batch, :other_per_batch, :base_batches_with, :other_batches_with, :base_n, :other_n,
        :p_value, keyword_init: true) do
        def appeared? = base_batches_with.zero?
      end

      METHOD = "Fisher's exact test on batches with any"

      module_function

      # Counts when one side is 0 in every batch and the other is not (every value finite and >= 0),
      # else nil.
      def of(base, other)
        values = base + other
        return nil if base.empty? || other.empty? || !values.all? { |v| v.is_a?(Numeric) && v.finite? && v >= 0 }
        with_base = base.count(&:positive?)
        with_other = other.count(&:positive?)
        return nil unless [with_base, with_other].count(&:zero?) == 1
        Counts.new(base_per_batch: Stats.mean(base), other_per_batch: Stats.mean(other), base_batches_with: with_base,
          other_batches_with: with_other, base_n: base.size, other_n: other.size,
          p_value: fisher(with_base, base.size, with_other, other.size)).freeze
      end

      # The Result fields of an appearance.
      def result(counts)
        {decision: counts.appeared? ? :appeared : :disappeared, reason: reason(counts), appearance: counts,
         p_value: counts.p_value}
      end

      def reason(c)
        base = side(c.base_per_batch, c.base_batches_with, c.base_n)
        other = side(c.other_per_batch, c.other_batches_with, c.other_n)
        format("%s here against %s on the baseline (Fisher's exact test on batches with any: p=%s)", other, base,
          (c.p_value < 0.001) ? "<0.001" : format("%.3f", c.p_value))
      end

      def side(per_batch, with, n)
        return "0 in all #{n} batch#{"es" unless n == 1}" if with.zero?
        shown = (per_batch >= 100 || per_batch == per_batch.round) ? format("%.0f", per_batch) : format("%.3g", per_batch)
        "#{shown} per batch (#{with} of #{n} batch#{"es" unless n == 1} had any)"
      end

      # Fisher's exact two-sided p-value for a 2x2 table: a of n_a and b of n_b batches had any. The
      # probability of every table with the same margins that is no more likely than the one seen.
      def fisher(a, n_a, b, n_b)
        total = a + b
        log_p = ->(x) { Stats.log_binomial(n_a, x) + Stats.log_binomial(n_b, total - x) - Stats.log_binomial(n_a + n_b, total) }
        seen = log_p.call(a)
        range = ([0, total - n_b].max..[total, n_a].min)
        [range.sum { |x| (log_p.call(x) <= seen + 1e-9) ? Math.exp(log_p.call(x)) : 0.0 }, 1.0].min
      end
    end
  end
end
