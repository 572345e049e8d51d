# Pure statistics over batch samples: summaries (mean, median and its interval, sd, CV, percentiles), the normal and
# Student t distributions (CDF, quantile, Welch-Satterthwaite degrees of freedom) and the tail of Snedecor's F.
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

    # Fieller's interval [low, high] for the ratio num / den of two estimates with variances var_num,
    # var_den and covariance cov, at the t (or normal) quantile q; nil when it is unbounded (den is not
    # told from 0 at q).
    def fieller(num, den, var_num, var_den, q, cov: 0.0)
      a = den * den - q * q * var_den
      return nil unless a.positive?
      b = num * den - q * q * cov
      root = Math.sqrt([b * b - a * (num * num - q * q * var_num), 0.0].max)
      [(b - root) / a, (b + root) / a].freeze
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

    # Standard normal P(Z <= z).
    def normal_cdf(z)
      0.5 * Math.erfc(-z / Math.sqrt(2))
    end

    # Standard normal quantile for 0 < p < 1: a rational first guess (Abramowitz & Stegun 26.2.23,
    # error below 4.5e-4) polished by Newton steps on the tail probability.
    def normal_quantile(p)
      raise ArgumentError, "probability must be strictly between 0 and 1, got #{p}" unless p > 0 && p < 1
      tail = [p, 1 - p].min
      return 0.0 if tail >= 0.5
      w = Math.sqrt(-2 * Math.log(tail))
      z = w - (2.515517 + 0.802853 * w + 0.010328 * w * w) / (1 + 1.432788 * w + 0.189269 * w * w + 0.001308 * w**3)
      4.times do
        density = Math.exp(-z * z / 2) / Math.sqrt(2 * Math::PI)
        step = (0.5 * Math.erfc(z / Math.sqrt(2)) - tail) / density
        z += step
        break if step.abs < 1e-15 * (1 + z.abs)
      end
      (p < 0.5) ? -z : z
    end

    # log(1 + u), accurate for small u (Ruby's Math has no log1p): the rounding error of 1 + u is
    # divided out again.
    def log1p(u)
      w = 1.0 + u
      rounded = w - 1.0
      rounded.zero? ? u : Math.log(w) * u / rounded
    end

    # Regularized incomplete beta function I_x(a, b) for a, b > 0 and 0 <= x <= 1, from its continued
    # fraction evaluated with the modified Lentz method. The fraction converges fast for
    # x < (a + 1) / (a + b + 2); above that point the symmetry I_x(a, b) = 1 - I_(1-x)(b, a) is used.
    # A caller that knows 1 - x more precisely than the subtraction gives passes it as `complement`.
    def incomplete_beta(x, a, b, complement = 1.0 - x)
      return 0.0 if x <= 0
      return 1.0 if complement <= 0
      log_front = Math.lgamma(a + b).first - Math.lgamma(a).first - Math.lgamma(b).first +
        a * Math.log(x) + b * Math.log(complement)
      if x < (a + 1) / (a + b + 2)
        Math.exp(log_front) * beta_fraction(x, a, b) / a
      else
        1 - Math.exp(log_front) * beta_fraction(complement, b, a) / b
      end
    end

    BETA_TINY = 1e-300
    BETA_EPSILON = 1e-15
    BETA_MAX_TERMS = 10_000

    # The continued fraction 1 / (1 + d1 / (1 + d2 / (1 + ...))) of the incomplete beta function, where
    # d(2m) = m (b - m) x / ((a + 2m - 1)(a + 2m)) and d(2m+1) = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)).
    # Written out without helpers: it is the innermost loop of every t quantile.
    def beta_fraction(x, a, b)
      c = 1.0
      d = 1 - (a + b) * x / (a + 1)
      d = BETA_TINY if d.abs < BETA_TINY
      d = 1.0 / d
      result = d
      m = 1
      while m <= BETA_MAX_TERMS
        even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        d = 1 + even * d
        d = BETA_TINY if d.abs < BETA_TINY
        d = 1.0 / d
        c = 1 + even / c
        c = BETA_TINY if c.abs < BETA_TINY
        result *= d * c
        odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        d = 1 + odd * d
        d = BETA_TINY if d.abs < BETA_TINY
        d = 1.0 / d
        c = 1 + odd / c
        c = BETA_TINY if c.abs < BETA_TINY
        delta = d * c
        result *= delta
        return result if (delta - 1).abs < BETA_EPSILON
        m += 1
      end
      result
    end

    # Above this many degrees of freedom the log-gamma terms of the beta route cancel badly, and the
    # first terms of the expansion in 1/df around the normal distribution are exact to about 1e-12.
    T_LARGE_DF = 1e6

    # Student t with df > 0 degrees of freedom (fractional allowed): P(T > t) = I_x(df/2, 1/2) / 2 with
    # x = df / (df + t^2) for t >= 0, computed directly so that small tail probabilities keep their
    # precision. Above T_LARGE_DF: the normal tail plus its 1/df correction.
    def t_upper_tail(t, df)
      raise ArgumentError, "degrees of freedom must be positive, got #{df}" unless df.is_a?(Numeric) && df > 0
      t = t.to_f
      if df > T_LARGE_DF
        density = Math.exp(-t * t / 2) / Math.sqrt(2 * Math::PI)
        return 0.5 * Math.erfc(t / Math.sqrt(2)) + density * (t**3 + t) / (4 * df)
      end
      tail = 0.5 * incomplete_beta(df / (df + t * t), df / 2.0, 0.5, t * t / (df + t * t))
      (t >= 0) ? tail : 1 - tail
    end

    # Student t P(T <= t).
    def t_cdf(t, df)
      t_upper_tail(-t, df)
    end

    # Student t density.
    def t_pdf(t, df)
      df = df.to_f
      Math.exp(Math.lgamma((df + 1) / 2.0).first - Math.lgamma(df / 2.0).first - 0.5 * Math.log(df * Math::PI) -
        (df + 1) / 2.0 * log1p(t * t / df))
    end

    # Student t quantile for 0 < p < 1: the t with P(T <= t) = p, to a relative 1e-11 or better.
    def t_quantile(p, df)
      raise ArgumentError, "probability must be strictly between 0 and 1, got #{p}" unless p > 0 && p < 1
      raise ArgumentError, "degrees of freedom must be positive, got #{df}" unless df.is_a?(Numeric) && df > 0
      tail = [p, 1 - p].min
      return 0.0 if tail >= 0.5
      df = df.to_f
      z = normal_quantile(1 - tail)
      t = (df > T_LARGE_DF) ? cornish_fisher(z, df) : t_upper_quantile(tail, df, z)
      (p < 0.5) ? -t : t
    end

    # The t > 0 whose upper tail is `tail` (< 0.5). The root lies between the normal quantile z and the
    # quantile of the density's power-law envelope c (t^2/df)^(-(df+1)/2) / sqrt(df), whose tail
    # c df^(df/2 - 1) t^-df is larger than the true one. Newton steps solve log(upper tail) = log(tail)
    # in log t, where a t tail is close to a straight line, starting from the Cornish-Fisher expansion;
    # a step that would leave the bracket bisects it instead. Convergence is quadratic, so once a
    # step is below 1e-6 of t the point it reaches is within about 1e-12.
    def t_upper_quantile(tail, df, z)
      lo = z
      log_c = Math.lgamma((df + 1) / 2).first - Math.lgamma(df / 2).first - 0.5 * Math.log(Math::PI)
      hi = Math.exp((log_c + (df / 2 - 1) * Math.log(df) - Math.log(tail)) / df)
      t = cornish_fisher(z, df).clamp(lo, hi)
      100.times do
        upper = t_upper_tail(t, df)
        if upper > tail
          lo = t
        else
          hi = t
        end
        step = Math.log(upper / tail) * upper / (t_pdf(t, df) * t)
        return t * Math.exp(step) if step.abs <= 1e-6
        t *= Math.exp(step)
        t = (lo + hi) / 2 unless t > lo && t < hi
        return t if hi - lo <= 1e-12 * t
      end
      t
    end

    # The t quantile from the normal quantile z by the expansion in powers of 1/df.
    def cornish_fisher(z, df)
      z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
    end

    # Welch-Satterthwaite degrees of freedom of a difference of two means, from each group's sample
    # variance and size (each n >= 2); nil when both variances are zero.
    def welch_df(var_a, n_a, var_b, n_b)
      u = var_a.to_f / n_a
      v = var_b.to_f / n_b
      return nil if u + v <= 0
      (u + v)**2 / (u * u / (n_a - 1) + v * v / (n_b - 1))
    end

    # Satterthwaite's degrees of freedom of a sum of independent variance estimates: parts are
    # [[v, df], ...], each v an estimated variance (of a mean, already weighted) with df degrees of
    # freedom; nil when every v is zero. Welch's df is the case of two parts.
    def satterthwaite_df(parts)
      total = 0.0
      spread = 0.0
      parts.each do |v, df|
        total += v
        spread += v * v / df
      end
      return nil if total <= 0
      total**2 / spread
    end

    # Snedecor's F with d1 and d2 degrees of freedom: P(F > f) = I_x(d2/2, d1/2), x = d2 / (d2 + d1 f).
    def f_upper_tail(f, d1, d2)
      raise ArgumentError, "degrees of freedom must be positive, got #{d1} and #{d2}" unless d1.positive? && d2.positive?
      return 1.0 if f <= 0
      denominator = d2 + d1 * f
      incomplete_beta(d2 / denominator, d2 / 2.0, d1 / 2.0, d1 * f / denominator)
    end
  end
end
