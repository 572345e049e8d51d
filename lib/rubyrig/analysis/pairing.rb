# Batches paired by round: each round of a plan runs every cell once, so a baseline batch and another
# runtime's batch of the same round (on the same host) share whatever moved the host during that round.
# The log ratio of each such pair takes the shared part out; Inference tests their mean with a one-sample
# t on n_pairs - 1 degrees of freedom, where the design says that pays (worth?). Pure functions
# (docs/statistics.md, "Round-paired comparisons" and "When to pair").
module Rubyrig
  class Analysis
    module Pairing
      # The correlation of two cells' log values within a round that the rule assumes, fixed before any
      # data: below the medians of this host's real A/A runs (+0.22 and +0.39, bench/aa).
      ROUND_CORRELATION = 0.2

      module_function

      # True when, at the round correlation ROUND_CORRELATION, the paired interval at level
      # 1 - each_alpha would be narrower than Welch's on the same batches: the paired t's quantile on
      # pairs - hosts df times sqrt(2 (1 - rho) / pairs) against Welch's quantile (on n_base + n_other -
      # 2 df per host, or min(n) - 1 when the counts differ, as Inference caps it) times
      # sqrt(1 / n_base + 1 / n_other). It reads batch counts and the level only, never the values, so
      # each test keeps its own error rate.
      def worth?(contrast, each_alpha)
        ratios = log_ratios(contrast)
        pairs = ratios.values.sum(&:size)
        paired_df = ratios.values.sum { |list| [list.size - 1, 0].max }
        n_base = contrast[:base].size
        n_other = contrast[:other].size
        welch_df = (n_base == n_other) ? n_base + n_other - 2 * ratios.size : [n_base, n_other].min - 1
        return false if paired_df < 1
        return true if welch_df < 1
        q = 1 - each_alpha / 2
        paired = Stats.t_quantile(q, paired_df) * Math.sqrt(2 * (1 - ROUND_CORRELATION) / pairs)
        paired < Stats.t_quantile(q, welch_df) * Math.sqrt(1.0 / n_base + 1.0 / n_other)
      end

      # True when every batch of the contrast names its round and no round holds a cell twice (a host
      # and a round identify one batch of each cell), so that pairs are well defined.
      def possible?(contrast)
        base = keys(contrast, :base)
        other = keys(contrast, :other)
        !base.nil? && !other.nil? && base.uniq.size == base.size && other.uniq.size == other.size
      end

      # The log ratios log(other) - log(base) of the rounds that hold both cells, grouped by host: {host => [Float]}.
      def log_ratios(contrast)
        base = keys(contrast, :base).zip(contrast[:base]).to_h
        pairs = keys(contrast, :other).zip(contrast[:other]).filter_map do |key, value|
          [key.first, Math.log(value) - Math.log(base[key])] if base.key?(key)
        end
        pairs.group_by(&:first).transform_values { |list| list.map(&:last) }
      end

      # Values without a partner in the other cell (the partner's batch failed or is missing).
      def unpaired(contrast)
        base = keys(contrast, :base)
        other = keys(contrast, :other)
        (base - other).size + (other - base).size
      end

      # [host, round] of each value of one side, or nil when a round is unknown.
      def keys(contrast, side)
        rounds = contrast[:"#{side}_rounds"]
        return nil if rounds.nil? || rounds.size != contrast[side].size || rounds.any?(&:nil?)
        hosts = contrast[:"#{side}_hosts"] || Array.new(rounds.size)
        hosts.zip(rounds)
      end
    end
  end
end
