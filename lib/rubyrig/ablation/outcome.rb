# The one place of the words `rubyrig why` says of a follow-up comparison (the same metric, both
# runtimes, one factor switched) and their thresholds. share: the Share of the gap it removes, with
# its interval [lo, hi]; "no gap" means the follow-up is not decided the run's way and its interval
# reaches into the equivalence margin around 1 (±2% by default; an inconclusive interval holds 1):
# - closes the gap: no gap, and lo >= CLOSES_SHARE (the share removed is decided to be most of it);
# - reverses it: decided the other way, its interval wholly beyond the margin;
# - narrows it: lo > 0, short of closing (a follow-up still decided the run's way is at best this);
# - widens it: hi < 0;
# - leaves it: lo <= 0 and hi < CLOSES_SHARE (it removes less than most, maybe nothing);
# - does not decide: the share's interval holds 0 and CLOSES_SHARE (or is unbounded), with the
#   batches that would likely decide it (ADVICE_POWER of reruns at the share and spreads measured);
# - not measured: the follow-up gave no ratio (failed batches), with the comparison's reason.
# docs/why-command.md gives how often each word is said for a switch that removes nothing, half, all.
module Rubyrig
  module Ablation
    module Outcome
      CLOSES = "closes the gap"
      NARROWS = "narrows it"
      REVERSES = "reverses it"
      WIDENS = "widens it"
      LEAVES = "leaves it"
      UNDECIDED = "does not decide"
      UNMEASURED = "not measured"
      ALL = [CLOSES, NARROWS, REVERSES, WIDENS, LEAVES, UNDECIDED, UNMEASURED].freeze
      EQUIVALENT = "equivalent"
      # "Most of the gap": the share's lower bound at least this closes it, its upper bound below leaves it.
      CLOSES_SHARE = 0.5
      # The share of reruns the advice of "does not decide" sizes the follow-up to decide.
      ADVICE_POWER = 0.8

      module_function

      # difference: the Difference (ratio, ci, verdict); comparison: the follow-up's (ratio, ci,
      # verdict, and the margin it was decided with, where it has one); share: their Share.
      def of(difference, comparison, share)
        return UNMEASURED unless comparison.ratio && comparison.ci
        other_way = Difference::DECIDED.include?(comparison.verdict) && comparison.verdict != difference.verdict
        return REVERSES if other_way && !within_margin?(comparison)
        return UNDECIDED unless share.defined?
        lo, hi = share.ci
        return CLOSES if no_gap?(difference, comparison) && lo >= CLOSES_SHARE
        return NARROWS if lo > 0
        return WIDENS if hi < 0
        (hi < CLOSES_SHARE) ? LEAVES : UNDECIDED
      end

      # Not decided the run's way, and its interval reaches into the equivalence margin around 1.
      def no_gap?(difference, comparison) = comparison.verdict != difference.verdict && within_margin?(comparison)

      # Whether the comparison's interval reaches into the equivalence margin around 1.
      def within_margin?(comparison)
        margin = (comparison.respond_to?(:margin) && comparison.margin) || Experiment::Decision::DEFAULT_EQUIVALENCE
        comparison.ci[0] <= 1 + margin && comparison.ci[1] >= 1 - margin
      end

      # What would decide a follow-up that does not decide; nil for the other words.
      def advice(difference, comparison, share, word)
        return nil unless word == UNDECIDED
        return share.reason unless share.defined?
        batches = Share.batches_to_decide(difference, comparison, [0.0, CLOSES_SHARE], power: ADVICE_POWER)
        return "the run's own interval of the gap is too wide: a run with more batches would decide it" if batches.nil?
        return "more than #{Share::BATCHES_CAP} batches per runtime would be needed" if batches.infinite?
        "about #{batches} batches per runtime (this follow-up has #{[comparison.n, comparison.baseline_n].compact.min}) would decide it in " \
          "#{(ADVICE_POWER * 100).round}% of reruns if the share and spreads hold (`rubyrig why --batches #{batches}` after removing this follow-up's directory)"
      end

      def closes?(word) = word == CLOSES

      # "104% [71%, 137%]"; "undefined" when the interval is unbounded.
      def share_text(share)
        return "undefined" unless share&.defined?
        format("%d%% [%d%%, %d%%]", *[share.estimate, *share.ci].map { |x| (x * 100).round })
      end
    end
  end
end
