# Verdicts from one interval that is also the test: Welch t on log batch values, Bonferroni-adjusted.
#
# Method (docs/statistics.md has the reasoning, assumptions and simulations):
# - Each batch value is replaced by its logarithm. The estimate is d = mean(log other) - mean(log base),
#   shown as ratio = exp(d): the ratio of geometric means, other / base. The geometric mean of 1/x is
#   1/geomean(x), so a rate (requests per second) and the matching duration (seconds per request) give
#   exactly reciprocal ratios: no choice of "time domain" or "rate domain" averaging is needed, unlike
#   the arithmetic and harmonic means used before.
# - se = sqrt(s_base^2 / n_base + s_other^2 / n_other) on the log scale, degrees of freedom by
#   Welch-Satterthwaite, and the interval exp(d -/+ t(1 - a/2, df) * se) with a = alpha / (m * looks):
#   Bonferroni over the m comparisons of the family and over the looks of a sequential run. The
#   interval shown IS the adjusted one; p_adjusted = min(1, p * m * looks), so p_adjusted < alpha
#   exactly when the interval excludes 1.0.
# - decision: :equivalent when the whole interval lies within [1 - margin, 1 + margin] (even if it
#   excludes 1.0: a real difference smaller than the margin); otherwise :higher / :lower when the
#   interval lies above / below 1.0; otherwise :inconclusive, with the number of
#   further batches per runtime that would likely decide it; :refused when there is nothing valid to
#   test (fewer than 2 batches on a side, or a value that is not a positive finite number).
# - Zero spread on both sides (CV 0%, e.g. counts or sizes that never vary): different values are
#   :higher / :lower with p = 0 and a point interval; identical values are a ratio of exactly 1.
# - Batches from several hosts (a merged sharded run): the host is a block. The contrast is made within
#   each host and combined with fixed weights, its df by Satterthwaite over every host's variances, and
#   Cochran's Q tests whether the hosts disagree (Strata has the details); the same decision rule then
#   applies to the combined interval.
#
# API:
#   Inference.family(contrasts, alpha: 0.05, margin: 0.02, looks: 1) -> [Result, ...] (input order)
#     contrasts: [{base: [Float, ...], other: [Float, ...], base_hosts: [String, ...], other_hosts: [...],
#     **labels}, ...]; the optional host lists name the host of each value (a block when there are
#     several); every other key comes back in Result#labels. m is the number of contrasts that are not refused (a refusal
#     depends only on batch counts and signs, never on the difference being tested).
#   Inference.batches_needed(log_ratio:, sd_base:, n_base:, sd_other:, n_other:, alpha:, margin:,
#     cap: BATCHES_CAP) -> Integer (more batches per runtime, 0 when already decided) or nil (over cap);
#     log_ratio and the sds are on the log scale, alpha is the per-comparison level alpha / (m * looks)
#   Result (frozen keyword Struct):
#     ratio (Float, nil when refused), ci ([lo, hi], nil when refused), confidence (1 - a, e.g. 0.9875),
#     p_value (raw two-sided), p_adjusted, decision (see DECISIONS), reason (nil for :higher / :lower),
#     method (e.g. "Welch t on log values, Bonferroni over 4 comparisons"), n (other's batches),
#     baseline_n, df (Welch-Satterthwaite, nil when both sides have zero spread or when refused),
#     labels (frozen Hash), hosts (nil from one host, else a Strata::Stratum per host), heterogeneity
#     (nil, or Strata::Heterogeneity), and #decided? (:higher, :lower or :equivalent). The member
#     `method` shadows Object#method on results.
module Rubyrig
  class Analysis
    module Inference
      DECISIONS = %i[higher lower equivalent inconclusive refused].freeze
      DECIDED = %i[higher lower equivalent].freeze
      MIN_BATCHES = 2
      # Beyond this many further batches per runtime an estimate says only "more than".
      BATCHES_CAP = 200
      METHOD = "Welch t on log values"

      Result = Struct.new(:ratio, :ci, :confidence, :p_value, :p_adjusted, :decision, :reason, :method, :n,
        :baseline_n, :df, :labels, :hosts, :heterogeneity, keyword_init: true) do
        def decided? = DECIDED.include?(decision)
      end

      # Mean and sample variance of the logarithms of one side's batch values.
      LogSample = Struct.new(:n, :mean, :variance, keyword_init: true)

      # One side's share of the variance of the estimate: weight^2 * variance / n on the log scale.
      Component = Struct.new(:weight, :variance, :n, keyword_init: true) do
        def share(extra = 0) = weight**2 * variance / (n + extra)
      end

      # The keys of a contrast that are data, not labels.
      DATA_KEYS = %i[base other base_hosts other_hosts].freeze

      module_function

      def family(contrasts, alpha: 0.05, margin: 0.02, looks: 1)
        validate(contrasts, alpha, margin, looks)
        prepared = contrasts.map { |c| [c, refusal(c)] }
        m = prepared.count { |_, refused| refused.nil? }
        tests = m * looks
        prepared.map do |contrast, refused|
          hosts = Strata.several?(contrast) ? Strata.parts(contrast).map(&:host).size : 1
          common = {n: contrast[:other].size, baseline_n: contrast[:base].size, method: method_name(m, looks, hosts),
                    labels: contrast.except(*DATA_KEYS).freeze}
          if refused
            Result.new(decision: :refused, reason: refused, **common).freeze
          else
            Result.new(**infer(contrast, alpha, tests, margin), **common).freeze
          end
        end
      end

      # How many more batches per runtime would, with the current estimate and spread (log scale),
      # give an interval at per-comparison level alpha that excludes 1.0 or fits within the margin.
      # The half-width shrinks as batches are added, so the answer is the first count that decides.
      # A normal quantile is never larger than the t quantile, so the count at which a normal interval
      # would first decide is found first (cheaply); the t search starts from there. An estimate, not a
      # promise: the next batches move the estimate and the spread too.
      def batches_needed(log_ratio:, sd_base:, n_base:, sd_other:, n_other:, alpha:, margin:, cap: BATCHES_CAP)
        components = [Component.new(weight: 1, variance: sd_base**2, n: n_base), Component.new(weight: 1, variance: sd_other**2, n: n_other)]
        batches_needed_for(log_ratio: log_ratio, components: components, hosts: 1, alpha: alpha, margin: margin, cap: cap)
      end

      # The same for any design: components are the variance Components of the estimate, and the k more
      # batches per runtime are spread evenly over the hosts (k / hosts more in each component).
      def batches_needed_for(log_ratio:, components:, hosts:, alpha:, margin:, cap: BATCHES_CAP)
        z = Stats.normal_quantile(1 - alpha / 2)
        shares = ->(k) { components.map { |c| [c.share(k.fdiv(hosts)), c.n + k.fdiv(hosts) - 1] } }
        se = ->(parts) { Math.sqrt(parts.sum(0.0, &:first)) }
        decided = ->(half) { decides?(Math.exp(log_ratio - half), Math.exp(log_ratio + half), margin) }
        normal = first_count(0, cap) { |k| decided.call(z * se.call(shares.call(k))) }
        return nil if normal.nil?
        first_count(normal, cap) do |k|
          parts = shares.call(k)
          df = Stats.satterthwaite_df(parts)
          df.nil? || decided.call(Stats.t_quantile(1 - alpha / 2, df) * se.call(parts))
        end
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

      def validate(contrasts, alpha, margin, looks)
        raise ArgumentError, "alpha must be between 0 and 1, got #{alpha.inspect}" unless alpha.is_a?(Numeric) && alpha > 0 && alpha < 1
        raise ArgumentError, "margin must be at least 0 and below 1, got #{margin.inspect}" unless margin.is_a?(Numeric) && margin >= 0 && margin < 1
        raise ArgumentError, "looks must be a positive Integer, got #{looks.inspect}" unless looks.is_a?(Integer) && looks >= 1
        contrasts.each do |c|
          raise ArgumentError, "each contrast needs base: and other: arrays, got #{c.inspect}" unless c.is_a?(Hash) && c[:base].is_a?(Array) && c[:other].is_a?(Array)
        end
      end

      # Why a contrast cannot be tested, or nil.
      def refusal(contrast)
        base = contrast[:base]
        other = contrast[:other]
        [["a baseline batch", base], ["a batch", other]].each do |subject, values|
          bad = values.find { |v| !(v.is_a?(Numeric) && v.finite? && v > 0) }
          return "#{subject} reported #{bad.inspect}; a ratio needs positive values" unless bad.nil?
        end
        if base.size < MIN_BATCHES || other.size < MIN_BATCHES
          return "needs at least #{MIN_BATCHES} ok batches on each side (has #{other.size}, baseline #{base.size})"
        end
        return nil unless Strata.several?(contrast) && Strata.usable(Strata.parts(contrast)).empty?
        "no host has #{MIN_BATCHES} ok batches on each side; batches from several hosts are compared within each host"
      end

      def method_name(m, looks, hosts = 1)
        parts = []
        within = (hosts > 1) ? "#{METHOD} within each of #{hosts} hosts, combined" : METHOD
        parts << "#{m} comparisons" if m > 1
        parts << "#{looks} looks" if looks > 1
        parts.empty? ? within : "#{within}, Bonferroni over #{parts.join(" x ")}"
      end

      # Logs are taken relative to the first one, so that identical values (5 and 5.0 alike) have a mean
      # of exactly their log and a spread of exactly zero: a rounding error in a plain mean of logs
      # could otherwise fake a difference between two constant sides.
      def log_sample(values)
        origin = Math.log(values.first)
        shifted = values.map { |v| Math.log(v) - origin }
        LogSample.new(n: values.size, mean: origin + Stats.mean(shifted), variance: Stats.sd(shifted)**2)
      end

      # The estimate and its variance components: one host's two samples, or the hosts combined.
      def design(contrast, each_alpha)
        return Strata.design(contrast, each_alpha) if Strata.several?(contrast)
        b = log_sample(contrast[:base])
        o = log_sample(contrast[:other])
        components = [Component.new(weight: 1, variance: b.variance, n: b.n), Component.new(weight: 1, variance: o.variance, n: o.n)]
        Strata::Design.new(log_ratio: o.mean - b.mean, components: components, hosts: 1, strata: nil)
      end

      def infer(contrast, alpha, tests, margin)
        each_alpha = alpha / tests
        design = design(contrast, each_alpha)
        d = design.log_ratio
        parts = design.components.map { |c| [c.share, c.n - 1] }
        se = 0.0
        parts.each { |share, _| se += share }
        se = Math.sqrt(se)
        df = Stats.satterthwaite_df(parts)
        if df.nil?
          p_value = d.zero? ? 1.0 : 0.0
          half = 0.0
        else
          p_value = [2 * Stats.t_upper_tail((d / se).abs, df), 1.0].min
          half = Stats.t_quantile(1 - each_alpha / 2, df) * se
        end
        ci = [Math.exp(d - half), Math.exp(d + half)].freeze
        decision, reason = decide(ci, margin, design.hosts) do
          batches_needed_for(log_ratio: d, components: design.components, hosts: design.hosts, alpha: each_alpha, margin: margin)
        end
        {ratio: Math.exp(d), ci: ci, confidence: 1 - each_alpha, p_value: p_value,
         p_adjusted: [p_value * tests, 1.0].min, decision: decision, reason: reason, df: df, hosts: design.strata,
         heterogeneity: design.strata && Strata.heterogeneity(contrast, alpha: alpha, tests: tests)}
      end

      # The decision and its reason; the block estimates the batches still needed when inconclusive. An
      # interval that lies within the margin is equivalent even when it excludes 1.0: the difference is
      # then real but smaller than what the margin says matters.
      def decide(ci, margin, hosts = 1)
        lo, hi = ci
        band = format("±%g%%", (margin * 100).round(2))
        shown = format("[%s, %s]", number(lo), number(hi))
        if margin.positive? && within?(lo, hi, margin)
          smaller = (lo > 1.0 || hi < 1.0) ? " (a real difference, smaller than the margin)" : ""
          return [:equivalent, "the interval #{shown} lies within #{band}#{smaller}"]
        end
        return [:higher, nil] if lo > 1.0
        return [:lower, nil] if hi < 1.0
        subject = margin.zero? ? "the interval #{shown} includes 1 and no equivalence margin is set" :
          "the interval #{shown} includes 1 and is not within #{band}"
        more = yield
        more = 1 if more&.zero? # the same interval, recomputed from rounded spreads, hit the boundary
        advice = if more.nil?
          "more than #{BATCHES_CAP} more batches per runtime would be needed"
        else
          "about #{more} more batch#{"es" unless more == 1} per runtime#{" (spread over the #{hosts} hosts)" if hosts > 1} would decide it"
        end
        [:inconclusive, "#{subject}; #{advice}"]
      end

      def within?(lo, hi, margin) = lo >= 1 - margin && hi <= 1 + margin

      def decides?(lo, hi, margin) = lo > 1.0 || hi < 1.0 || within?(lo, hi, margin)

      def number(x) = (x >= 0.01 && x < 100) ? format("%.3f", x) : format("%.3g", x)
    end
  end
end
