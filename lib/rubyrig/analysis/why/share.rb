# How much of a difference one additive component accounts for: the difference of its mean per unit
# of work between the runtimes over the difference of the primary cost's mean, s = Dx / Dc, with
# Fieller's interval for a ratio of means. Each batch gives both numbers, so their covariance counts:
# the interval holds every s with
#   (Dx - s Dc)^2 <= q^2 (var(Dx) - 2 s cov(Dx, Dc) + s^2 var(Dc)).
# When every round holds one batch of each side (as the verdicts pair them), the variances are those
# of the rounds' differences over n, on n - 1 degrees of freedom, so that what a round shares (a busy
# moment of the host) cancels; otherwise var(Dx) = var(x_other) / n_other + var(x_base) / n_base and
# cov alike, on the smaller side's n - 1 (Hsu's conservative choice). Both ways q is t's quantile at
# the confidence given, and with equal batch counts the degrees of freedom are the same. The set is a
# bounded interval only when Dc is decided at that confidence (Dc^2 > q^2 var(Dc)), and it leaves out 0
# only when Dx is too (Dx^2 > q^2 var(Dx)); otherwise ci is nil (unbounded). When the interval does not
# decide, batches is about how many batches per runtime would: the first n at which both Dx and Dc,
# with the spreads seen, clear q plus t's POWER quantile standard errors.
module Rubyrig
  class Analysis
    module Why
      module Share
        # share is nil when the primary cost does not differ on average (or a side has one batch); ci is
        # nil when the interval is unbounded; batches is nil when the interval decides (or past CAP).
        Estimate = Struct.new(:share, :ci, :difference, :batches, keyword_init: true) do
          # The interval lies wholly above 0: the component moved the way the cost did, decided.
          def positive? = !ci.nil? && ci.first.positive?
        end

        POWER = 0.8
        CAP = 1000

        module_function

        # base, other: [[component per unit, cost per unit], ...], one pair per batch; rounds: each
        # side's round of every batch, [base_rounds, other_rounds], or nil when not known.
        def of(base, other, confidence:, rounds: nil)
          dx = mean(other, 0) - mean(base, 0)
          dc = mean(other, 1) - mean(base, 1)
          return Estimate.new(difference: dx).freeze if dc.zero? || base.size < 2 || other.size < 2
          alpha = 1 - confidence
          sides = paired(base, other, rounds) || [base, other]
          ci = fieller(dx, dc, sides, Stats.t_quantile(1 - alpha / 2, sides.map(&:size).min - 1))
          decided = ci && (ci.first.positive? || ci.last.negative?)
          Estimate.new(share: dx / dc, ci: ci, difference: dx, batches: decided ? nil : batches(dx, dc, sides, alpha)).freeze
        end

        # [the rounds' differences, other minus base], when every round holds one batch of each side.
        def paired(base, other, rounds)
          return nil unless rounds
          base_rounds, other_rounds = rounds
          return nil unless base_rounds.uniq.size == base.size && base_rounds.sort == other_rounds.sort && !base_rounds.include?(nil)
          by_round = base_rounds.zip(base).to_h
          [other_rounds.zip(other).map { |round, (x, c)| [x - by_round[round][0], c - by_round[round][1]] }]
        end

        # Fieller's interval [lo, hi] for Dx / Dc at quantile q, or nil when it is unbounded.
        def fieller(dx, dc, sides, q)
          var_x, var_c, cov = [[0, 0], [1, 1], [0, 1]].map { |i, j| sides.sum { |side| moment(side, i, j) } }
          Stats.fieller(dx, dc, var_x, var_c, q, cov: cov)
        end

        # About how many batches per runtime would decide both differences at level alpha, or nil past CAP.
        def batches(dx, dc, sides, alpha)
          wanted = [[dx, 0], [dc, 1]].map { |d, i| [d, sides.sum { |side| spread(side, i) }] }
          enough = ->(n) { wanted.all? { |d, var| clears?(d, var, n, alpha) } }
          low = high = sides.map(&:size).max
          until enough.call(high)
            return nil if high >= CAP
            low = high
            high = [high * 2, CAP].min
          end
          (low..high).bsearch { |n| enough.call(n) }
        end

        def clears?(d, var, n, alpha)
          (Stats.t_quantile(1 - alpha / 2, n - 1) + Stats.t_quantile(POWER, n - 1)) * Math.sqrt(var / n) < d.abs
        end

        def mean(pairs, i) = pairs.sum { |p| p[i] } / pairs.size

        # The sample variance of column i.
        def spread(pairs, i) = moment(pairs, i, i) * pairs.size

        # The sample covariance of columns i and j over n: a side's share of the estimate's (co)variance.
        def moment(pairs, i, j)
          mi = mean(pairs, i)
          mj = mean(pairs, j)
          pairs.sum { |p| (p[i] - mi) * (p[j] - mj) } / (pairs.size - 1) / pairs.size
        end
      end
    end
  end
end
