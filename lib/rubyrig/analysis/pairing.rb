# Batches paired by round: each round of a plan runs every cell once, so a baseline batch and another
# runtime's batch of the same round (on the same host) share whatever moved the host during that round.
# The log ratio of each such pair takes the shared part out; Inference tests their mean with a one-sample
# t on n_pairs - 1 degrees of freedom. Pure functions (docs/statistics.md, "Round-paired comparisons").
module Rubyrig
  class Analysis
    module Pairing
      module_function

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
