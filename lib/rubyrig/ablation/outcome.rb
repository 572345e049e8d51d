# What one follow-up comparison says about the gap of a difference (the same metric, both runtimes, one
# factor switched):
# - closes the gap: equivalent; or not decided apart with an interval clear of the original one; or
#   decided, either way, by so little that its interval reaches into the equivalence margin (±2% by
#   default), clear of the original one: what a switch that leaves two identical runtimes gives when
#   noise decides their comparison (an A/A pair is decided in about 5% of runs);
# - narrows it: still decided the same way, with an interval clear of the original one and of the
#   margin, nearer 1;
# - reverses it: decided the other way, its interval wholly beyond the equivalence margin;
# - widens it: still decided the same way, with an interval clear of the original one, farther from 1;
# - leaves it: still decided the same way, its interval meeting the original one;
# - not decided: an interval that meets both 1 and the original one (more batches would tell);
# - not measured: the follow-up gave no ratio (failed batches), with the comparison's reason.
module Rubyrig
  module Ablation
    module Outcome
      CLOSES = "closes the gap"
      NARROWS = "narrows it"
      REVERSES = "reverses it"
      WIDENS = "widens it"
      LEAVES = "leaves it"
      UNDECIDED = "not decided"
      UNMEASURED = "not measured"
      ALL = [CLOSES, NARROWS, REVERSES, WIDENS, LEAVES, UNDECIDED, UNMEASURED].freeze
      EQUIVALENT = "equivalent"

      module_function

      # difference: the Difference (ratio, ci, verdict); comparison: the follow-up's (ratio, ci, verdict,
      # and the margin it was decided with, where it has one).
      def of(difference, comparison)
        return UNMEASURED unless comparison.ratio && comparison.ci
        return CLOSES if comparison.verdict == EQUIVALENT
        clear = clear_of?(difference, comparison)
        return (clear ? CLOSES : UNDECIDED) unless Difference::DECIDED.include?(comparison.verdict)
        return CLOSES if clear && within_margin?(comparison)
        return REVERSES if comparison.verdict != difference.verdict
        return NARROWS if clear
        beyond?(difference, comparison) ? WIDENS : LEAVES
      end

      # Whether the comparison's interval reaches into the equivalence margin around 1.
      def within_margin?(comparison)
        margin = (comparison.respond_to?(:margin) && comparison.margin) || Experiment::Decision::DEFAULT_EQUIVALENCE
        comparison.ci[0] <= 1 + margin && comparison.ci[1] >= 1 - margin
      end

      # Whether the follow-up's interval lies wholly on 1's side of the original interval.
      def clear_of?(difference, comparison)
        low, high = difference.ci || [difference.ratio, difference.ratio]
        (difference.ratio < 1) ? comparison.ci[0] > high : comparison.ci[1] < low
      end

      # Whether the follow-up's interval lies wholly beyond the original interval, away from 1.
      def beyond?(difference, comparison)
        low, high = difference.ci || [difference.ratio, difference.ratio]
        (difference.ratio < 1) ? comparison.ci[1] < low : comparison.ci[0] > high
      end

      def closes?(word) = word == CLOSES
    end
  end
end
