# Pure statistics over batch samples: summaries, bootstrap ratio intervals, permutation tests, Holm.
module Rubyrig
  module Stats
    module_function

    def mean(values)
      return nil if values.empty?
      values.sum(0.0) / values.size
    end

    def median(values)
      percentile(values, 50)
    end

    # Sample standard deviation (n - 1 in the denominator); nil below two values.
    def sd(values)
      return nil if values.size < 2
      m = mean(values)
      Math.sqrt(values.sum(0.0) { |v| (v - m)**2 } / (values.size - 1))
    end

    # Coefficient of variation as a fraction (0.05 is 5%); nil when undefined.
    def cv(values)
      s = sd(values)
      m = mean(values)
      return nil if s.nil? || m.nil? || m.zero?
      s / m.abs
    end

    # Percentile with linear interpolation between closest ranks (R type 7, numpy's default).
    def percentile(values, pct)
      return nil if values.empty?
      sorted = values.sort
      rank = (pct / 100.0) * (sorted.size - 1)
      lower = sorted[rank.floor]
      upper = sorted[rank.ceil]
      lower + (upper - lower) * (rank - rank.floor)
    end

    def summarize(values)
      {
        n: values.size,
        median: median(values),
        mean: mean(values),
        sd: sd(values),
        cv: cv(values),
        p10: percentile(values, 10),
        p90: percentile(values, 90),
        min: values.min,
        max: values.max,
        median_ci: median_ci(values)
      }
    end

    # Distribution-free interval of the median from order statistics: the narrowest pair of sorted
    # values, as many from each end, whose coverage (the binomial chance that the median lies
    # between them) is at least `confidence`. nil when there are too few values (fewer than 6 for 95%).
    def median_ci(values, confidence: 0.95)
      n = values.size
      return nil if n.zero?
      tail = (1.0 - confidence) / 2
      below = 0.0
      depth = 0
      # depth values may be dropped from each end while the chance of fewer than depth + 1 values
      # below the median stays within the tail.
      while depth < n / 2
        below += Math.exp(log_binomial(n, depth) - n * Math.log(2))
        break if below > tail
        depth += 1
      end
      return nil if depth.zero?
      sorted = values.sort
      [sorted[depth - 1], sorted[n - depth]]
    end

    def log_binomial(n, k) = Math.lgamma(n + 1)[0] - Math.lgamma(k + 1)[0] - Math.lgamma(n - k + 1)[0]

    # The mean taken in the time domain: a rate (per second) is averaged as its reciprocal, which gives
    # the harmonic mean; a duration or a size is averaged as it is.
    def time_domain_mean(values, rate:)
      return mean(values) unless rate
      return nil if values.empty? || values.any? { |v| v <= 0 }
      values.size / values.sum(0.0) { |v| 1.0 / v }
    end

    # Ratio of time-domain means, other / base.
    def ratio(base, other, rate:)
      b = time_domain_mean(base, rate: rate)
      o = time_domain_mean(other, rate: rate)
      return nil if b.nil? || o.nil? || b.zero?
      o / b
    end

    # Percentile bootstrap interval for ratio(base, other): both groups resampled with replacement.
    def bootstrap_ratio_ci(base, other, rate:, rng:, resamples: 10_000, confidence: 0.95)
      return nil if base.size < 2 || other.size < 2
      b = rate ? base.map { |v| 1.0 / v } : base
      o = rate ? other.map { |v| 1.0 / v } : other
      ratios = Array.new(resamples) do
        mb = resample_mean(b, rng)
        mo = resample_mean(o, rng)
        # In the time domain a rate ratio is base time over other time.
        rate ? mb / mo : mo / mb
      end
      ratios.reject! { |r| !r.finite? }
      return nil if ratios.empty?
      tail = (1.0 - confidence) / 2 * 100
      [percentile(ratios, tail), percentile(ratios, 100 - tail)]
    end

    def resample_mean(values, rng)
      n = values.size
      total = 0.0
      n.times { total += values[rng.rand(n)] }
      total / n
    end

    # Two-sided permutation test on the difference of means. Exact when the number of relabellings is
    # at most max_exact, otherwise Monte Carlo with `resamples` shuffles (p = (hits + 1) / (draws + 1)).
    # Rates are tested in the time domain.
    def permutation_p_value(a, b, rng:, rate: false, max_exact: 20_000, resamples: 20_000)
      return nil if a.empty? || b.empty?
      a = a.map { |v| 1.0 / v } if rate
      b = b.map { |v| 1.0 / v } if rate
      pooled = a + b
      total = pooled.sum(0.0)
      k = a.size
      n = pooled.size
      observed = (mean(a) - mean(b)).abs
      tolerance = 1e-12 * [observed, 1.0].max
      stat = lambda do |sum_a|
        ((sum_a / k) - ((total - sum_a) / (n - k))).abs
      end
      hits = 0
      if binomial(n, k) <= max_exact
        count = 0
        (0...n).to_a.combination(k) do |idx|
          count += 1
          hits += 1 if stat.call(idx.sum(0.0) { |i| pooled[i] }) >= observed - tolerance
        end
        hits.to_f / count
      else
        resamples.times do
          hits += 1 if stat.call(pooled.sample(k, random: rng).sum(0.0)) >= observed - tolerance
        end
        (hits + 1).to_f / (resamples + 1)
      end
    end

    def binomial(n, k)
      (1..k).reduce(1) { |acc, i| acc * (n - k + i) / i }
    end

    # Holm-Bonferroni step-down adjustment; returns adjusted p-values in the input order (nils kept).
    def holm(p_values)
      indexed = p_values.each_with_index.reject { |p, _| p.nil? }.sort_by(&:first)
      m = indexed.size
      adjusted = Array.new(p_values.size)
      running = 0.0
      indexed.each_with_index do |(p, original), rank|
        running = ((m - rank) * p).clamp(running, 1.0)
        adjusted[original] = running
      end
      adjusted
    end

    # :higher, :lower or :same: whether `other` differs significantly from the baseline, and which way.
    # Both the adjusted p-value and the interval must agree before a difference is claimed.
    def direction(ratio:, ci:, p_adjusted:, alpha: 0.05)
      return :same if ratio.nil? || ci.nil? || p_adjusted.nil?
      return :same unless p_adjusted < alpha
      return :higher if ci[0] > 1.0
      return :lower if ci[1] < 1.0
      :same
    end
  end
end
