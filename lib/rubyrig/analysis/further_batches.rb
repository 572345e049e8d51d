# How many more batches per runtime would decide an inconclusive comparison in about POWER of fresh runs
# (docs/statistics.md, "Inconclusive, and how many batches would decide it"). Pure functions on the log
# scale, used by Inference.
#
# API:
#   FurtherBatches.of(log_ratio:, sd_base:, n_base:, sd_other:, n_other:, alpha:, margin:,
#     cap: Inference::BATCHES_CAP) -> Integer (more batches per runtime) or nil (over cap); log_ratio and
#     the sds are on the log scale, alpha is the per-comparison level alpha / (m * looks)
#   FurtherBatches.for_design(log_ratio:, components:, hosts:, alpha:, margin:, cap:) -> the same for any
#     design (Inference::Component list)
module Rubyrig
  class Analysis
    module FurtherBatches
      # The share of fresh runs that the estimate is sized to decide, at the ratio and spread measured;
      # the reason says it (test/rubyrig/analysis/further_batches_simulation_test.rb checks it).
      POWER = 0.8

      module_function

      # How many more batches per runtime would decide about POWER of fresh runs of that size, with the
      # current estimate d and spreads (log scale) at per-comparison level alpha. Two conditions, both
      # needed: (1) the interval around d, widened by t(POWER) standard errors, would decide (an
      # estimate that falls short of d by that much still decides); (2) the true log ratio is uncertain
      # too: taken as normal around d with the current standard error se0, a fresh run's estimate is
      # normal around d with variance se0^2 + se_k^2, and the chance that it lies beyond the half-width
      # h_k (a difference) or within the margin by h_k (equivalent) reaches POWER. The first such k is
      # found by doubling, then bisecting. An estimate, not a promise: docs/statistics.md has how often
      # it comes true.
      def of(log_ratio:, sd_base:, n_base:, sd_other:, n_other:, alpha:, margin:, cap: Inference::BATCHES_CAP)
        components = [Inference::Component.new(weight: 1, variance: sd_base**2, n: n_base), Inference::Component.new(weight: 1, variance: sd_other**2, n: n_other)]
        for_design(log_ratio: log_ratio, components: components, hosts: 1, alpha: alpha, margin: margin, cap: cap)
      end

      # The same for any design: components are the variance Components of the estimate, and the k more
      # batches per runtime are spread evenly over the hosts (k / hosts more in each component).
      def for_design(log_ratio:, components:, hosts:, alpha:, margin:, cap: Inference::BATCHES_CAP)
        shares = ->(k) { components.map { |c| [c.share(k.fdiv(hosts)), c.n + k.fdiv(hosts) - 1] } }
        now = shares.call(0).sum(0.0, &:first)
        sized = lambda do |k, quantile|
          parts = shares.call(k)
          df = Stats.satterthwaite_df(parts)
          return true if df.nil?
          se = Math.sqrt(parts.sum(0.0, &:first))
          half = quantile.call(1 - alpha / 2, df) * se
          wide = half + quantile.call(POWER, df) * se
          Inference.decides?(Math.exp(log_ratio - wide), Math.exp(log_ratio + wide), margin) &&
            decide_chance(log_ratio, half, Math.sqrt(now + se * se), margin) >= POWER
        end
        # Normal quantiles are never larger than t quantiles, so the count at which they suffice is a
        # lower bound, found cheaply; the t search starts there.
        normal = first_count(1, cap) { |k| sized.call(k, ->(p, _) { Stats.normal_quantile(p) }) }
        normal && first_count(normal, cap) { |k| sized.call(k, Stats.method(:t_quantile)) }
      end

      # The chance that an estimate normal around d with sd tau decides with half-width h: beyond h on
      # either side of 0, or within [log(1 - margin) + h, log(1 + margin) - h].
      def decide_chance(d, h, tau, margin)
        below = Stats.normal_cdf((-h - d) / tau)
        above = Stats.normal_cdf((d - h) / tau)
        return below + above unless margin.positive?
        low = Math.log(1 - margin) + h
        high = Math.log(1 + margin) - h
        below + above + ((high > low) ? Stats.normal_cdf((high - d) / tau) - Stats.normal_cdf((low - d) / tau) : 0.0)
      end

      # The smallest k in from..cap for which a condition that stays true once true holds, or nil: the
      # step doubles until it holds, then the last gap is bisected.
      def first_count(from, cap)
        return from if yield(from)
        low = from
        high = [from + 1, cap].min
        until yield(high)
          return nil if high >= cap
          step = 2 * (high - low)
          low = high
          high = [high + step, cap].min
        end
        while high - low > 1
          mid = (low + high) / 2
          if yield(mid)
            high = mid
          else
            low = mid
          end
        end
        high
      end
    end
  end
end
