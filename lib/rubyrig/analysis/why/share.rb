# How much of a difference one additive component accounts for: the difference of its mean per unit
# of work between the runtimes over the difference of the primary cost's mean, with an interval by the
# delta method. Each batch gives both numbers, so each side's covariance between them counts:
#   s = Dx / Dc, var(s) ~ (var(Dx) - 2 s cov(Dx, Dc) + s^2 var(Dc)) / Dc^2,
# where var(Dx) = var(x_other) / n_other + var(x_base) / n_base and cov alike, on the smaller side's
# n - 1 degrees of freedom (Hsu's conservative choice), at the confidence the comparison was decided at.
module Rubyrig
  class Analysis
    module Why
      module Share
        # share and ci ([lo, hi]) are nil when the primary cost does not differ on average.
        Estimate = Struct.new(:share, :ci, :difference, keyword_init: true)

        module_function

        # base, other: [[component per unit, cost per unit], ...], one pair per batch.
        def of(base, other, confidence:)
          dx = mean(other, 0) - mean(base, 0)
          dc = mean(other, 1) - mean(base, 1)
          return Estimate.new(difference: dx).freeze if dc.zero? || base.size < 2 || other.size < 2
          s = dx / dc
          var_x = moment(other, 0, 0) + moment(base, 0, 0)
          var_c = moment(other, 1, 1) + moment(base, 1, 1)
          cov = moment(other, 0, 1) + moment(base, 0, 1)
          se = Math.sqrt([var_x - 2 * s * cov + s * s * var_c, 0.0].max) / dc.abs
          half = Stats.t_quantile(1 - (1 - confidence) / 2, [base.size, other.size].min - 1) * se
          Estimate.new(share: s, ci: [s - half, s + half].freeze, difference: dx).freeze
        end

        def mean(pairs, i) = pairs.sum { |p| p[i] } / pairs.size

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
