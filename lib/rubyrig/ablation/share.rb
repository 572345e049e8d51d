# The share of a gap a switch removes, on the log scale: 1 - log r1 / log r0 (r0: the run's ratio,
# r1: the follow-up's), with Fieller's interval for the ratio of the two independent log ratios, so
# that it carries both runs' uncertainty. Each standard error is read back from its interval
# (exp(d -/+ t * se) at its confidence and df); the interval is at the follow-up's confidence, its t on
# the Welch-Satterthwaite df of log r1 - theta log r0 at the estimate. When the run's own gap is not
# told from 1 at that confidence (log r0 within q * se0 of 0), the interval is unbounded: the share
# is undefined and `reason` says so. `batches_to_decide` projects the follow-up's batches per runtime
# that would put the interval clear of a boundary in most reruns, if the share and spreads hold.
module Rubyrig
  module Ablation
    Share = Struct.new(:estimate, :ci, :confidence, :df, :reason, keyword_init: true) do
      def defined? = !ci.nil?

      def to_record = {"share" => estimate, "share_ci" => ci, "share_confidence" => confidence, "share_df" => df, "share_reason" => reason}
    end

    class Share
      # Above this many batches per runtime a projection says only "more than".
      BATCHES_CAP = 200
      # A log ratio with its standard error and degrees of freedom (df nil: exact).
      Estimate = Struct.new(:log, :se, :df, keyword_init: true)

      # difference, comparison: each responds to ratio, ci, confidence and df.
      def self.of(difference, comparison)
        r0 = estimate(difference)
        r1 = estimate(comparison)
        return undefined("the follow-up gave no ratio") unless r1
        return undefined("the run's interval of the gap was not recorded with its degrees of freedom") unless r0
        fieller(r0, r1, comparison.confidence)
      end

      # nil when the ratio, its interval or (for a spread) its confidence and df are missing.
      def self.estimate(c)
        return nil unless c.ratio&.positive? && c.ci
        lo, hi = c.ci
        return Estimate.new(log: Math.log(c.ratio), se: 0.0, df: nil) if lo == hi
        return nil unless c.df&.positive? && c.confidence
        q = Stats.t_quantile(1 - (1 - c.confidence) / 2, c.df)
        Estimate.new(log: Math.log(c.ratio), se: (Math.log(hi) - Math.log(lo)) / (2 * q), df: c.df)
      end

      def self.undefined(reason) = new(estimate: nil, ci: nil, confidence: nil, df: nil, reason: reason).freeze

      # extra: added to the t quantile (a projection's power); nil confidence: 0.95.
      def self.fieller(r0, r1, confidence, extra: 0.0)
        confidence ||= 0.95
        return undefined("the run's ratio is 1: there is no gap to share") if r0.log.zero?
        theta = r1.log / r0.log
        df = welch_df(r0, r1, theta)
        q = (df ? Stats.t_quantile(1 - (1 - confidence) / 2, df) : 0.0) + extra
        low, high = Stats.fieller(r1.log, r0.log, r1.se**2, r0.se**2, q)
        unless low
          return undefined(format("the run's gap is not told from 1 at %g%% confidence, so no share of it is", (confidence * 100).round(2)))
        end
        new(estimate: 1 - theta, ci: [1 - high, 1 - low].freeze, confidence: confidence, df: df, reason: nil).freeze
      end

      # Welch-Satterthwaite df of log r1 - theta log r0; nil when neither side has a spread.
      def self.welch_df(r0, r1, theta)
        parts = [[r1.se**2, r1.df], [(theta * r0.se)**2, r0.df]].select { |v, _| v.positive? }
        return nil if parts.empty?
        parts.sum(&:first)**2 / parts.sum { |v, df| v**2 / df }
      end

      # The batches per runtime (follow-up now at n) whose interval, widened by `power`'s normal
      # quantile, would lie clear of one of `boundaries` at the same estimates; Float::INFINITY beyond
      # BATCHES_CAP, nil when the run's own spread alone keeps it from deciding.
      def self.batches_to_decide(difference, comparison, boundaries, power:)
        r0 = estimate(difference)
        r1 = estimate(comparison)
        n = [comparison.n, comparison.baseline_n].compact.min
        return nil unless r0 && r1&.df && n && n > 1
        decides = ->(more) { decides?(r0, r1, n, more, comparison.confidence, boundaries, Stats.normal_quantile(power)) }
        found = ((n + 1)..BATCHES_CAP).find(&decides)
        found || (decides.call(Float::INFINITY) ? Float::INFINITY : nil)
      end

      def self.decides?(r0, r1, n, more, confidence, boundaries, extra)
        scaled = Estimate.new(log: r1.log, se: r1.se * Math.sqrt(n.to_f / more), df: [r1.df * (more - 1) / (n - 1), 1e6].min)
        share = fieller(r0, scaled, confidence, extra: extra)
        share.defined? && boundaries.any? { |b| share.ci[0] > b || share.ci[1] < b }
      end
    end
  end
end
