# What is 0 in some batches: a metric other than speed (errors, non-2xx responses, timeouts, failed
# checks, major GCs) that is 0 in some batches has no ratio of logs to test, so it is compared on the
# share of batches that had any, batch by batch (the batch is the unit: a failing batch has many errors
# at once). Fisher's exact test on the 2x2 table of batches with and without any, at the family's
# corrected level, decides :appeared / :disappeared (0 in every batch on one side), :higher / :lower
# (some on both sides), or :inconclusive: "seen on one side only, not decided" or "not decided". The
# interval is that of the odds ratio of a batch having any, exact and conditional on the table's
# margins, which excludes 1 exactly when the test decides. Pure.
module Rubyrig
  class Analysis
    module Appearance
      # Means per batch, batches with a value above 0, batch counts, Fisher's two-sided p (twice the
      # smaller tail) and the interval of the odds ratio other / baseline of a batch having any, at the
      # family's corrected level: [low, high], high nil when unbounded.
      Counts = Struct.new(:base_per_batch, :other_per_batch, :base_batches_with, :other_batches_with, :base_n, :other_n,
        :p_value, :odds_ci, keyword_init: true) do
        def appeared? = base_batches_with.zero?

        def one_side? = [base_batches_with, other_batches_with].count(&:zero?) == 1

        def rose? = other_batches_with.fdiv(other_n) > base_batches_with.fdiv(base_n)
      end

      METHOD = "Fisher's exact test on batches with any"
      # Log odds ratios searched for the interval's bounds.
      LOG_ODDS_RANGE = 40.0

      module_function

      # Counts when some batch is 0 and some is not (every value finite and >= 0), else nil.
      def of(base, other)
        values = base + other
        return nil if base.empty? || other.empty? || !values.all? { |v| v.is_a?(Numeric) && v.finite? && v >= 0 }
        return nil unless values.any?(&:zero?) && values.any?(&:positive?)
        with_base = base.count(&:positive?)
        with_other = other.count(&:positive?)
        Counts.new(base_per_batch: Stats.mean(base), other_per_batch: Stats.mean(other), base_batches_with: with_base,
          other_batches_with: with_other, base_n: base.size, other_n: other.size,
          p_value: fisher(with_other, other.size, with_base, base.size), odds_ci: nil)
      end

      # The Result fields of a comparison of batches with any, tested at each_alpha (the family's alpha
      # over its comparisons and looks; tests is that factor).
      def result(counts, each_alpha, tests)
        counts = counts.dup.tap { |c| c.odds_ci = odds_interval(c, each_alpha).freeze }.freeze
        decision = if counts.p_value >= each_alpha then :inconclusive
        elsif counts.one_side? then counts.appeared? ? :appeared : :disappeared
        else counts.rose? ? :higher : :lower
        end
        {decision: decision, reason: reason(counts, decision, each_alpha, tests), appearance: counts,
         p_value: counts.p_value, p_adjusted: [counts.p_value * tests, 1.0].min, confidence: 1 - each_alpha}
      end

      def reason(c, decision, each_alpha, tests)
        base = side(c.base_per_batch, c.base_batches_with, c.base_n)
        other = side(c.other_per_batch, c.other_batches_with, c.other_n)
        p = (c.p_value < 0.001) ? "<0.001" : format("%.3f", c.p_value)
        test = if tests > 1 then format("p=%s, needs below %.3g after the correction over %d", p, each_alpha, tests)
        else "p=#{p}"
        end
        lo, hi = c.odds_ci
        odds = format("odds ratio of a batch with any [%s, %s]", number(lo), hi ? number(hi) : "inf")
        said = "#{other} here against #{base} on the baseline (#{METHOD}: #{test}; #{odds})"
        return said unless decision == :inconclusive
        "#{c.one_side? ? "seen on one side only" : "seen on both sides"}, not decided: #{said}"
      end

      def number(x) = format("%.3g", x)

      def side(per_batch, with, n)
        return "0 in all #{n} batch#{"es" unless n == 1}" if with.zero?
        shown = (per_batch >= 100 || per_batch == per_batch.round) ? format("%.0f", per_batch) : format("%.3g", per_batch)
        "#{shown} per batch (#{with} of #{n} batch#{"es" unless n == 1} had any)"
      end

      # Fisher's exact two-sided p for a 2x2 table, a of n_a and b of n_b batches had any: twice the
      # smaller one-sided tail (at most 1), which the odds ratio's interval inverts exactly.
      def fisher(a, n_a, b, n_b)
        upper, lower = tails(a, n_a, b, n_b, 0.0)
        [2 * [upper, lower].min, 1.0].min
      end

      # P(X >= a) and P(X <= a) for X, the batches with any on the first side given both margins, when
      # the log odds ratio is log_odds (Fisher's noncentral hypergeometric distribution).
      def tails(a, n_a, b, n_b, log_odds) = tails_of(terms(a, n_a, b, n_b), a, log_odds)

      # {x => log of the central hypergeometric weight of x} over the support of X.
      def terms(a, n_a, b, n_b)
        total = a + b
        ([0, total - n_b].max..[total, n_a].min).to_h { |x| [x, Stats.log_binomial(n_a, x) + Stats.log_binomial(n_b, total - x)] }
      end

      def tails_of(terms, a, log_odds)
        top = terms.map { |x, l| l + x * log_odds }.max
        upper = lower = sum = 0.0
        terms.each do |x, l|
          w = Math.exp(l + x * log_odds - top)
          sum += w
          upper += w if x >= a
          lower += w if x <= a
        end
        [upper / sum, lower / sum]
      end

      # The exact conditional interval of the odds ratio at level 1 - each_alpha: the odds ratios that
      # neither one-sided test rejects at each_alpha / 2. Low 0 and high nil at the ends of the support.
      def odds_interval(c, each_alpha)
        a = c.other_batches_with
        terms = terms(a, c.other_n, c.base_batches_with, c.base_n)
        low = (a <= terms.keys.min) ? 0.0 : Math.exp(root(each_alpha / 2) { |l| tails_of(terms, a, l)[0] })
        high = (a >= terms.keys.max) ? nil : Math.exp(root(1 - each_alpha / 2) { |l| 1 - tails_of(terms, a, l)[1] })
        [low, high]
      end

      # The log odds where the block, increasing in it, reaches target (by bisection).
      def root(target)
        lo = -LOG_ODDS_RANGE
        hi = LOG_ODDS_RANGE
        60.times do
          mid = (lo + hi) / 2
          (yield(mid) < target) ? lo = mid : hi = mid
        end
        (lo + hi) / 2
      end
    end
  end
end
