# Verdicts from one interval that is also the test: t on log batch values (paired by round where the
# rounds hold both cells, Welch's otherwise), Bonferroni-adjusted.
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
# - Paired by round (Pairing): when every batch names its round, at least 2 rounds hold both cells and
#   the design says pairing pays for the degrees of freedom it costs (Pairing.worth?, a rule on batch
#   counts and the corrected level, never on the values), d is the mean of the paired log ratios
#   log(other_r) - log(base_r), se their sd / sqrt(pairs), on pairs - 1 df. Batches without a partner
#   are left out. Otherwise Welch, as above; with unequal batch counts its df is capped at
#   min(n_base, n_other) - 1 (Hsu's conservative df).
# - Counts (count: true, whole-number values): each side's log variance is at least that of a count
#   moving by one unit, (log(1 + 1/min) / 2)^2, so that 1, 1 against 2, 2 is not a certainty.
# - Zero spread (CV 0%, e.g. sizes that never vary): different values are :higher / :lower with p = 0
#   and a point interval when each side has ZERO_SPREAD_MIN batches (pairs), else :inconclusive;
#   identical values are a ratio of exactly 1.
# - A count with zeros in some batches and not in others (appear: true, e.g. errors), or a measured
#   quantity that is 0 in every batch on one side only: compared on the
#   batches that had any by Fisher's exact test at the same corrected level, so in m (Appearance):
#   :appeared / :disappeared when 0 in every batch on one side, :higher / :lower when both sides had
#   some, :inconclusive when not decided.
# - Batches from several hosts (a merged sharded run): the host is a block. The contrast is made within
#   each host and combined with fixed weights, its df by Satterthwaite over every host's variances, and
#   Cochran's Q tests whether the hosts disagree (Strata has the details); the same decision rule then
#   applies to the combined interval.
#
# API:
#   Inference.family(contrasts, alpha: 0.05, margin: 0.02, looks: 1, count: false, appear: false,
#     pairing: :design) -> [Result, ...] (input order)
#     contrasts: [{base: [Float, ...], other: [Float, ...], base_hosts: [String, ...], other_hosts: [...],
#     base_rounds: [Integer, ...], other_rounds: [...], **labels}, ...]; the optional host lists name the
#     host of each value (a block when there are several), the round lists its round (pairs); every
#     other key comes back in Result#labels. m is the number of contrasts that are not refused (a refusal
#     depends only on batch counts and signs, never on the difference being tested).
#   Result (frozen keyword Struct):
#     ratio (Float, nil when refused), ci ([lo, hi], nil when refused), confidence (1 - a, e.g. 0.9875),
#     p_value (raw two-sided), p_adjusted, decision (see DECISIONS), reason (nil for :higher / :lower),
#     method (e.g. "Welch t on log values, Bonferroni over 4 comparisons"), n (other's batches),
#     baseline_n, df (Welch-Satterthwaite, nil when both sides have zero spread or when refused),
#     labels (frozen Hash), hosts (nil from one host, else a Strata::Stratum per host), heterogeneity
#     (nil, or Strata::Heterogeneity), paired (true when paired by round), caveats (CAVEATS keys that
#     applied), appearance (Appearance::Counts for a comparison of batches with any), and #decided? (:higher,
#     :lower or :equivalent). The member `method` shadows Object#method on results.
module Rubyrig
  class Analysis
    module Inference
      DECISIONS = %i[higher lower equivalent inconclusive refused appeared disappeared].freeze
      DECIDED = %i[higher lower equivalent].freeze
      MIN_BATCHES = 2
      # Zero spread is taken as exact (a point interval) only from this many batches (or pairs) a side.
      ZERO_SPREAD_MIN = 3
      # Beyond this many further batches per runtime an estimate says only "more than".
      BATCHES_CAP = 200
      METHOD = "Welch t on log values"
      PAIRED_METHOD = "t on round-paired log ratios"
      # The edges a comparison met, each with the words a warning uses.
      CAVEATS = {
        unequal: "unequal batch counts: Welch's df is capped at the smaller side's n - 1 (conservative)",
        floored: "a count that barely varied: its spread is taken as at least one unit",
        few_constant: "values constant over too few batches to take as exact: not called higher or lower"
      }.freeze

      Result = Struct.new(:ratio, :ci, :confidence, :p_value, :p_adjusted, :decision, :reason, :method, :n,
        :baseline_n, :df, :labels, :hosts, :heterogeneity, :paired, :caveats, :appearance, keyword_init: true) do
        def decided? = DECIDED.include?(decision)
      end

      # Mean and sample variance of the logarithms of one side's batch values.
      LogSample = Struct.new(:n, :mean, :variance, keyword_init: true)

      # One side's share of the variance of the estimate: weight^2 * variance / n on the log scale.
      Component = Struct.new(:weight, :variance, :n, keyword_init: true) do
        def share(extra = 0) = weight**2 * variance / (n + extra)
      end

      # The keys of a contrast that are data, not labels.
      DATA_KEYS = %i[base other base_hosts other_hosts base_rounds other_rounds].freeze

      module_function

      # count: the values are counts (a one-unit floor on their spread); appear: a metric with zeros is
      # compared on its batches with any (Appearance) instead of refused: a count wherever it has zeros,
      # a measured quantity only when one side is 0 in every batch (present against absent; a 0 among
      # positive readings is the clock's or the counter's resolution, not an absence); pairing: :design pairs by round
      # where the design says it pays (Pairing.worth?), :always wherever the rounds allow (simulations
      # of the paired test alone).
      def family(contrasts, alpha: 0.05, margin: Experiment::Decision::DEFAULT_EQUIVALENCE, looks: 1, count: false, appear: false,
        pairing: :design)
        validate(contrasts, alpha, margin, looks)
        prepared = contrasts.map { |c| [c, appear && (count || absent_side?(c)) && Appearance.of(c[:base], c[:other]), refusal(c)] }
        m = prepared.count { |_, counts, refused| counts || refused.nil? }
        prepared.map do |contrast, counts, refused|
          paired = !counts && paired?(contrast, (pairing == :always) ? nil : alpha / (m * looks))
          hosts = Strata.several?(contrast) ? Strata.parts(contrast).map(&:host).size : 1
          common = {n: contrast[:other].size, baseline_n: contrast[:base].size, method: method_name(m, looks, hosts, paired: paired),
                    labels: contrast.except(*DATA_KEYS).freeze, paired: paired, caveats: [].freeze}
          if counts
            Result.new(**common.merge(method: method_name(m, looks, name: Appearance::METHOD)),
              **Appearance.result(counts, alpha / (m * looks), m * looks)).freeze
          elsif refused
            Result.new(decision: :refused, reason: refused, **common).freeze
          else
            Result.new(**common, **infer(contrast, alpha, m * looks, margin, count, paired)).freeze
          end
        end
      end

      # True when the contrast is paired by round: every batch names its round, at least MIN_BATCHES
      # rounds (on one host) hold both cells, and, tested at each_alpha (nil: whenever possible), the
      # design says pairing pays for its degrees of freedom (Pairing.worth?).
      def paired?(contrast, each_alpha = nil)
        contrast[:base].all? { |v| positive?(v) } && contrast[:other].all? { |v| positive?(v) } &&
          Pairing.possible?(contrast) && Pairing.log_ratios(contrast).values.any? { |list| list.size >= MIN_BATCHES } &&
          (each_alpha.nil? || Pairing.worth?(contrast, each_alpha))
      end

      def positive?(value) = value.is_a?(Numeric) && value.finite? && value > 0

      def validate(contrasts, alpha, margin, looks)
        raise ArgumentError, "alpha must be between 0 and 1, got #{alpha.inspect}" unless alpha.is_a?(Numeric) && alpha > 0 && alpha < 1
        raise ArgumentError, "margin must be at least 0 and below 1, got #{margin.inspect}" unless margin.is_a?(Numeric) && margin >= 0 && margin < 1
        raise ArgumentError, "looks must be a positive Integer, got #{looks.inspect}" unless looks.is_a?(Integer) && looks >= 1
        contrasts.each do |c|
          raise ArgumentError, "each contrast needs base: and other: arrays, got #{c.inspect}" unless c.is_a?(Hash) && c[:base].is_a?(Array) && c[:other].is_a?(Array)
        end
      end

      # True when one side is 0 in every batch.
      def absent_side?(contrast) = [contrast[:base], contrast[:other]].any? { |values| !values.empty? && values.all? { |v| v.is_a?(Numeric) && v.zero? } }

      # Why a contrast cannot be tested, or nil.
      def refusal(contrast)
        base = contrast[:base]
        other = contrast[:other]
        return "0 in every batch on both sides: no ratio to compare" if (base + other).all? { |v| v.is_a?(Numeric) && v.zero? } && !base.empty?
        [["a baseline batch", base], ["a batch", other]].each do |subject, values|
          bad = values.find { |v| !positive?(v) }
          return "#{subject} reported #{bad.inspect}; a ratio needs positive values" unless bad.nil?
        end
        if base.size < MIN_BATCHES || other.size < MIN_BATCHES
          return "needs at least #{MIN_BATCHES} ok batches on each side (has #{other.size}, baseline #{base.size})"
        end
        return nil unless Strata.several?(contrast) && Strata.usable(Strata.parts(contrast)).empty?
        "no host has #{MIN_BATCHES} ok batches on each side; batches from several hosts are compared within each host"
      end

      def method_name(m, looks, hosts = 1, paired: false, name: paired ? PAIRED_METHOD : METHOD)
        parts = []
        within = (hosts > 1) ? "#{name} within each of #{hosts} hosts, combined" : name
        parts << "#{m} comparisons" if m > 1
        parts << "#{looks} looks" if looks > 1
        parts.empty? ? within : "#{within}, Bonferroni over #{parts.join(" x ")}"
      end

      # Logs are taken relative to the first one, so that identical values (5 and 5.0 alike) have a mean
      # of exactly their log and a spread of exactly zero: a rounding error in a plain mean of logs
      # could otherwise fake a difference between two constant sides.
      def log_sample(values)
        origin = Math.log(values.first)
        difference_sample(values.map { |v| Math.log(v) - origin }, origin)
      end

      # Mean and sample variance of values already on the log scale (paired log ratios), relative to the
      # first for the same reason: equal ratios have a spread of exactly zero.
      def difference_sample(logs, origin = 0.0)
        first = logs.first
        shifted = logs.map { |x| x - first }
        LogSample.new(n: logs.size, mean: origin + first + Stats.mean(shifted), variance: Stats.sd(shifted)**2)
      end

      # The least log variance of a side of counts: that of a count that moves by one unit around its
      # smallest value, (log(1 + 1/min) / 2)^2; 0 for values that are not all whole numbers.
      def quantum_variance(values)
        return 0.0 unless values.all? { |v| v == v.round }
        (Math.log(1 + 1.0 / values.min) / 2)**2
      end

      # The estimate and its variance components: within each host (one or several), paired by round
      # or not.
      def design(contrast, each_alpha, count, paired = paired?(contrast, each_alpha))
        floor = count ? method(:quantum_variance) : ->(_) { 0.0 }
        Strata.design(contrast, each_alpha, paired: paired, floor: floor)
      end

      def infer(contrast, alpha, tests, margin, count, paired)
        each_alpha = alpha / tests
        design = design(contrast, each_alpha, count, paired)
        d = design.log_ratio
        parts = design.components.map { |c| [c.share, c.n - 1] }
        se = Math.sqrt(parts.sum(0.0, &:first))
        df = Stats.satterthwaite_df(parts)
        df = [df, design.df_cap].min if df && design.df_cap
        caveats = design.caveats
        few = design.components.map(&:n).min < ZERO_SPREAD_MIN
        if df.nil?
          p_value = (d.zero? || few) ? 1.0 : 0.0
          caveats += [:few_constant] if few && !d.zero?
          half = 0.0
        else
          p_value = [2 * Stats.t_upper_tail((d / se).abs, df), 1.0].min
          half = Stats.t_quantile(1 - each_alpha / 2, df) * se
        end
        ci = [Math.exp(d - half), Math.exp(d + half)].freeze
        decision, reason = decide(ci, margin, design.hosts, exact: !caveats.include?(:few_constant)) do
          FurtherBatches.for_design(log_ratio: d, components: design.components, hosts: design.hosts, alpha: each_alpha, margin: margin)
        end
        {ratio: Math.exp(d), ci: ci, confidence: 1 - each_alpha, p_value: p_value, caveats: caveats.freeze,
         p_adjusted: [p_value * tests, 1.0].min, decision: decision, reason: reason, df: df, hosts: design.strata,
         heterogeneity: design.strata && Strata.heterogeneity(contrast, alpha: alpha, tests: tests, paired: design.paired)}
      end

      # The decision and its reason; the block estimates the batches still needed when inconclusive. An
      # interval that lies within the margin is equivalent even when it excludes 1.0: the difference is
      # then real but smaller than what the margin says matters. exact: false for a point interval from
      # too few constant batches, which decides nothing.
      def decide(ci, margin, hosts = 1, exact: true)
        lo, hi = ci
        band = format("±%g%%", (margin * 100).round(2))
        shown = format("[%s, %s]", number(lo), number(hi))
        unless exact
          return [:inconclusive, "the values are constant on both sides but over fewer than #{ZERO_SPREAD_MIN} batches, " \
            "too few to take as exact; #{ZERO_SPREAD_MIN} or more batches per runtime would decide it"]
        end
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
          "about #{more} more batch#{"es" unless more == 1} per runtime#{" (spread over the #{hosts} hosts)" if hosts > 1} would decide it " \
            "#{(FurtherBatches::POWER * 100).round}% of the time if the ratio and spread are as measured"
        end
        [:inconclusive, "#{subject}; #{advice}"]
      end

      def within?(lo, hi, margin) = lo >= 1 - margin && hi <= 1 + margin

      def decides?(lo, hi, margin) = lo > 1.0 || hi < 1.0 || within?(lo, hi, margin)

      def number(x) = (x >= 0.01 && x < 100) ? format("%.3f", x) : format("%.3g", x)
    end
  end
end
