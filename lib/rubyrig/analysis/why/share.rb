# How much of a difference one additive component accounts for: the difference of its mean per unit
# of work between the runtimes over the difference of the primary cost's mean, s = Dx / Dc, with
# Fieller's interval for a ratio of means. Each batch gives both numbers, so each side's covariance
# between them counts: the interval holds every s with
#   (Dx - s Dc)^2 <= q^2 (var(Dx) - 2 s cov(Dx, Dc) + s^2 var(Dc)),
# where var(Dx) = var(x_other) / n_other + var(x_base) / n_base and cov alike, and q is t's quantile on
# the smaller side's n - 1 degrees of freedom (Hsu's conservative choice) at the confidence given. The
# set is a bounded interval only when Dc is decided at that confidence (Dc^2 > q^2 var(Dc)), and it
# leaves out 0 only when Dx is too (Dx^2 > q^2 var(Dx)); otherwise ci is nil (unbounded). When the
# interval does not decide, batches is about how many batches per runtime would: the first n at which
# both Dx and Dc, with the spreads seen, clear q plus t's POWER quantile standard errors.
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

        # base, other: [[component per unit, cost per unit], ...], one pair per batch.
        def of(base, other, confidence:)
          dx = mean(other, 0) - mean(base, 0)
          dc = mean(other, 1) - mean(base, 1)
          return Estimate.new(difference: dx).freeze if dc.zero? || base.size < 2 || other.size < 2
          alpha = 1 - confidence
          df = [base.size, other.size].min - 1
          ci = fieller(dx, dc, [base, other], Stats.t_quantile(1 - alpha / 2, df))
          decided = ci && (ci.first.positive? || ci.last.negative?)
          Estimate.new(share: dx / dc, ci: ci, difference: dx, batches: decided ? nil : batches(base, other, alpha)).freeze
        end

        # Fieller's interval [lo, hi] for Dx / Dc at quantile q, or nil when it is unbounded.
        def fieller(dx, dc, sides, q)
          var_x, var_c, cov = [[0, 0], [1, 1], [0, 1]].map { |i, j| sides.sum { |side| moment(side, i, j) } }
          a = dc * dc - q * q * var_c
          return nil unless a.positive?
          b = dx * dc - q * q * cov
          root = Math.sqrt([b * b - a * (dx * dx - q * q * var_x), 0.0].max)
          [(b - root) / a, (b + root) / a].freeze
        end

        # About how many batches per runtime would decide both differences at level alpha, or nil past CAP.
        def batches(base, other, alpha)
          wanted = [0, 1].map { |i| [mean(other, i) - mean(base, i), spread(base, i) + spread(other, i)] }
          enough = ->(n) { wanted.all? { |d, var| clears?(d, var, n, alpha) } }
          low = high = [base.size, other.size].max
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
