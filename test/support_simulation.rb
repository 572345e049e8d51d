# Seeded Monte Carlo runs of Analysis::Inference and Analysis::Sequential on synthetic batch values,
# one host or several, shared by the simulation tests and bench/statistics-simulation (pure logic, no
# I/O).
require "rubyrig"
require "rubyrig/analysis/sequential"

module SupportSimulation
  Inference = Rubyrig::Analysis::Inference
  Sequential = Rubyrig::Analysis::Sequential

  # Multiplicative batch noise with median 1: lognormal with the given CV, and with probability
  # outlier_p a batch is also multiplied by outlier_factor (a heavy right tail, like a batch that
  # shared the machine with something else).
  Noise = Struct.new(:name, :cv, :outlier_p, :outlier_factor, keyword_init: true) do
    def sigma = Math.sqrt(Math.log(1 + cv * cv))

    def lognormal? = outlier_p.zero?

    def draw(rng, n, ratio)
      Array.new(n) do
        value = ratio * Math.exp(sigma * SupportSimulation.gaussian(rng))
        (rng.rand < outlier_p) ? value * outlier_factor : value
      end
    end
  end

  NOISES = [
    Noise.new(name: "lognormal CV 1%", cv: 0.01, outlier_p: 0.0, outlier_factor: 1.0).freeze,
    Noise.new(name: "lognormal CV 5%", cv: 0.05, outlier_p: 0.0, outlier_factor: 1.0).freeze,
    Noise.new(name: "lognormal CV 20%", cv: 0.20, outlier_p: 0.0, outlier_factor: 1.0).freeze,
    Noise.new(name: "CV 5% + 10% of batches x3", cv: 0.05, outlier_p: 0.1, outlier_factor: 3.0).freeze
  ].freeze

  # Counts from many simulated families. A null comparison has a true ratio of 1.0; a false positive
  # is a null comparison called :higher or :lower; a right call is a non-null one called in the true
  # direction; all_covered counts draws whose intervals held every true ratio at once; stops counts
  # the draws by the batch count at which they stopped.
  Tally = Struct.new(:draws, :comparisons, :nulls, :false_positives, :covered, :all_covered, :non_nulls,
    :right_calls, :equivalent, :inconclusive, :batches, :stops, keyword_init: true) do
    def false_positive_rate = false_positives.fdiv(nulls)

    def coverage = covered.fdiv(comparisons)

    def simultaneous_coverage = all_covered.fdiv(draws)

    def power = right_calls.fdiv(non_nulls)

    def equivalent_rate = equivalent.fdiv(comparisons)

    def inconclusive_rate = inconclusive.fdiv(comparisons)

    def mean_batches = batches.fdiv(draws)

    # The batch count by which at least `share` of the runs had stopped.
    def stopped_by(share)
      seen = 0
      stops.keys.sort.find { |n| (seen += stops[n]) >= share * draws }
    end
  end

  # Counts from many simulated merged runs of several hosts, for the combined (host as a block) analysis
  # and for the pooled one that ignores the hosts: intervals that hold the true combined ratio, calls in
  # the true direction (or false positives when it is 1), heterogeneity warnings (Welch's F, and a
  # plain chi-square reference for comparison), the interval widths (log hi/lo), and the coverage of
  # the inverse-variance weighted alternative that rubyrig does not use.
  HostsTally = Struct.new(:draws, :covered, :pooled_covered, :iv_covered, :right, :pooled_right, :claims, :pooled_claims,
    :warnings, :chi_square_warnings, :odd_named, :widths, :pooled_widths, keyword_init: true) do
    def coverage = covered.fdiv(draws)

    def pooled_coverage = pooled_covered.fdiv(draws)

    def iv_coverage = iv_covered.fdiv(draws)

    def right_rate = right.fdiv(draws)

    def pooled_right_rate = pooled_right.fdiv(draws)

    def claim_rate = claims.fdiv(draws)

    def pooled_claim_rate = pooled_claims.fdiv(draws)

    def warning_rate = warnings.fdiv(draws)

    def chi_square_warning_rate = chi_square_warnings.fdiv(draws)

    # Of the draws that warned, the share that named exactly the expected odd host.
    def odd_named_rate = warnings.zero? ? 0.0 : odd_named.fdiv(warnings)

    def median_width = SupportSimulation.median(widths)

    def median_pooled_width = SupportSimulation.median(pooled_widths)
  end

  module_function

  def median(values) = Rubyrig::Stats.median(values)

  # `draws` merged runs: host h multiplies each of its batches by speeds[h] (a faster or slower
  # machine) and has n batches per side; the other runtime's true ratio there is ratios[h]; noises[h]
  # is its noise. The true combined ratio is the geometric mean of the hosts' ratios (equal batch
  # counts give equal weights). One comparison per draw, so no Bonferroni factor. odd: the host label
  # ("host-3") a warning should name, if any.
  def hosts(noises:, n:, speeds:, ratios:, draws:, seed:, odd: nil, alpha: 0.05, margin: 0.02)
    rng = Random.new(seed)
    truth = Math.exp(ratios.sum { |r| Math.log(r) } / ratios.size)
    labels = speeds.each_index.flat_map { |h| ["host-#{h + 1}"] * n }
    tally = HostsTally.new(draws: draws, covered: 0, pooled_covered: 0, iv_covered: 0, right: 0, pooled_right: 0,
      claims: 0, pooled_claims: 0, warnings: 0, chi_square_warnings: 0, odd_named: 0, widths: [], pooled_widths: [])
    draws.times do
      base = speeds.each_index.flat_map { |h| noises[h].draw(rng, n, speeds[h]) }
      other = speeds.each_index.flat_map { |h| noises[h].draw(rng, n, speeds[h] * ratios[h]) }
      contrast = {base: base, other: other, base_hosts: labels, other_hosts: labels}
      combined = Inference.family([contrast], alpha: alpha, margin: margin).first
      pooled = Inference.family([{base: base, other: other}], alpha: alpha, margin: margin).first
      tally_hosts(tally, truth, combined, pooled)
      tally.iv_covered += 1 if inverse_variance_covers?(contrast, truth, alpha)
      q = combined.heterogeneity&.q
      tally.chi_square_warnings += 1 if q && chi_square_tail(q, speeds.size - 1) < alpha
      tally.odd_named += 1 if combined.heterogeneity&.disagree && combined.heterogeneity.odd_hosts == [odd]
    end
    tally.freeze
  end

  def tally_hosts(tally, truth, combined, pooled)
    tally.covered += 1 if covers?(combined, truth)
    tally.pooled_covered += 1 if covers?(pooled, truth)
    tally.widths << Math.log(combined.ci[1] / combined.ci[0])
    tally.pooled_widths << Math.log(pooled.ci[1] / pooled.ci[0])
    tally.claims += 1 if claimed?(combined)
    tally.pooled_claims += 1 if claimed?(pooled)
    unless null?(truth)
      wanted = (truth > 1) ? :higher : :lower
      tally.right += 1 if combined.decision == wanted
      tally.pooled_right += 1 if pooled.decision == wanted
    end
    tally.warnings += 1 if combined.heterogeneity&.disagree
  end

  def covers?(result, truth) = truth.between?(result.ci[0], result.ci[1])

  # The alternative rubyrig does not use: weights 1 / v_h from the measured spreads, treated as known,
  # with Satterthwaite's df over the weighted components.
  def inverse_variance_covers?(contrast, truth, alpha)
    parts = Rubyrig::Analysis::Strata.parts(contrast)
    total = parts.sum { |p| 1.0 / p.variance }
    d = parts.sum { |p| p.log_ratio / p.variance } / total
    pieces = parts.flat_map do |p|
      w = (1.0 / p.variance) / total
      [p.base, p.other].map do |values|
        sample = Inference.log_sample(values)
        [w * w * sample.variance / sample.n, sample.n - 1]
      end
    end
    df = Rubyrig::Stats.satterthwaite_df(pieces)
    half = Rubyrig::Stats.t_quantile(1 - alpha / 2, df) * Math.sqrt(1.0 / total)
    Math.log(truth).between?(d - half, d + half)
  end

  # P(chi-square with df degrees of freedom > q), closed forms for 1 to 3 degrees of freedom.
  def chi_square_tail(q, df)
    case df
    when 1 then Math.erfc(Math.sqrt(q / 2))
    when 2 then Math.exp(-q / 2)
    when 3 then Math.erfc(Math.sqrt(q / 2)) + Math.sqrt(2 * q / Math::PI) * Math.exp(-q / 2)
    else raise ArgumentError, "chi-square tail for 1 to 3 degrees of freedom only"
    end
  end

  # One standard normal deviate (Box-Muller).
  def gaussian(rng)
    Math.sqrt(-2 * Math.log(1.0 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand)
  end

  # Standard error of a rate estimated from `draws` independent draws if the true rate were `rate`.
  def standard_error(rate, draws) = Math.sqrt(rate * (1 - rate) / draws)

  # `draws` families with n batches per side: one baseline sample shared by every runtime, whose true
  # ratios to the baseline are `ratios`. The other runtimes may have their own noise. paired: the
  # batches name their rounds 1..n, so that Inference pairs them.
  def fixed(noise:, n:, ratios:, draws:, seed:, other_noise: noise, alpha: 0.05, margin: 0.02, paired: false)
    rng = Random.new(seed)
    tally = new_tally(draws, ratios)
    rounds = paired ? {base_rounds: (1..n).to_a, other_rounds: (1..n).to_a} : {}
    draws.times do
      base = noise.draw(rng, n, 1.0)
      contrasts = ratios.map { |r| {base: base, other: other_noise.draw(rng, n, r), **rounds} }
      results = Inference.family(contrasts, alpha: alpha, margin: margin, pairing: paired ? :always : :design)
      count(tally, ratios, results)
      tally.batches += n
      tally.stops[n] += 1
    end
    tally.freeze
  end

  # `draws` sequential runs: looks at the schedule of Sequential.new(min_batches:, max_batches:),
  # stopping at the first look where every comparison is decided. Verdicts are those at the stop;
  # false positives count a null comparison called :higher or :lower at ANY look (stricter).
  def sequential(noise:, ratios:, draws:, seed:, min_batches: 3, max_batches: 30, alpha: 0.05, margin: 0.02)
    rng = Random.new(seed)
    plan = Sequential.new(min_batches: min_batches, max_batches: max_batches)
    tally = new_tally(draws, ratios)
    draws.times do
      base = noise.draw(rng, max_batches, 1.0)
      others = ratios.map { |r| noise.draw(rng, max_batches, r) }
      ever_claimed = Array.new(ratios.size, false)
      results = nil
      stop = plan.looks.find do |n|
        results = Inference.family(others.map { |o| {base: base.first(n), other: o.first(n)} },
          alpha: alpha, margin: margin, looks: plan.k)
        results.each_with_index { |r, i| ever_claimed[i] ||= claimed?(r) }
        plan.stop?(n, results)
      end
      count(tally, ratios, results, claimed: ever_claimed)
      tally.batches += stop
      tally.stops[stop] += 1
    end
    tally.freeze
  end

  def null?(ratio) = (ratio - 1).abs < 1e-12

  def claimed?(result) = %i[higher lower].include?(result.decision)

  def new_tally(draws, ratios)
    nulls = ratios.count { |r| null?(r) }
    Tally.new(draws: draws, comparisons: draws * ratios.size, nulls: draws * nulls, false_positives: 0, covered: 0,
      all_covered: 0, non_nulls: draws * (ratios.size - nulls), right_calls: 0, equivalent: 0, inconclusive: 0,
      batches: 0, stops: Hash.new(0))
  end

  def count(tally, ratios, results, claimed: results.map { |r| claimed?(r) })
    covered = results.zip(ratios).map { |r, truth| r.ci && r.ci[0] <= truth && truth <= r.ci[1] }
    tally.covered += covered.count(true)
    tally.all_covered += 1 if covered.all?
    results.zip(ratios, claimed).each do |r, truth, claim|
      tally.equivalent += 1 if r.decision == :equivalent
      tally.inconclusive += 1 if r.decision == :inconclusive
      if null?(truth)
        tally.false_positives += 1 if claim
      elsif r.decision == ((truth > 1) ? :higher : :lower)
        tally.right_calls += 1
      end
    end
  end
end
