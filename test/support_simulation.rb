# Seeded Monte Carlo runs of Analysis::Inference and Analysis::Sequential on synthetic batch values,
# shared by the simulation tests and bench/statistics-simulation (pure logic, no I/O).
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

  module_function

  # One standard normal deviate (Box-Muller).
  def gaussian(rng)
    Math.sqrt(-2 * Math.log(1.0 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand)
  end

  # Standard error of a rate estimated from `draws` independent draws if the true rate were `rate`.
  def standard_error(rate, draws) = Math.sqrt(rate * (1 - rate) / draws)

  # `draws` families with n batches per side: one baseline sample shared by every runtime, whose true
  # ratios to the baseline are `ratios`. The other runtimes may have their own noise.
  def fixed(noise:, n:, ratios:, draws:, seed:, other_noise: noise, alpha: 0.05, margin: 0.02)
    rng = Random.new(seed)
    tally = new_tally(draws, ratios)
    draws.times do
      base = noise.draw(rng, n, 1.0)
      contrasts = ratios.map { |r| {base: base, other: other_noise.draw(rng, n, r)} }
      results = Inference.family(contrasts, alpha: alpha, margin: margin)
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
