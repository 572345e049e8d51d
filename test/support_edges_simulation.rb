# Seeded Monte Carlo runs of Analysis::Inference at the edges of issue 26: batches run in rounds that
# share a common effect (and a position effect inside a round), compared paired by round or by Welch's
# test; unequal batch counts; two-valued counts; and whether "about N more batches would decide it"
# comes true in a fresh run. Shared by edges_simulation_test.rb and bench/statistics-simulation (pure
# logic, no I/O).
require "support_simulation"

module SupportEdgesSimulation
  Inference = Rubyrig::Analysis::Inference
  Sim = SupportSimulation

  # Out of `draws` comparisons: claims (called higher or lower), right (called in the true direction),
  # decided (higher, lower or equivalent), covered (the interval holds the true ratio).
  Rates = Struct.new(:draws, :claims, :right, :decided, :covered, keyword_init: true) do
    def claim_rate = claims.fdiv(draws)

    def power = right.fdiv(draws)

    def decided_rate = decided.fdiv(draws)

    def coverage = covered.fdiv(draws)
  end

  # One design of two cells: n_base and n_other batches from the first rounds, each round multiplying
  # both cells by a shared exp(round_sd * z), and the cell that runs second in the round by 1 + position.
  # Who runs second: at random in each round (shuffled rounds), or, with `balanced`, alternating from a
  # random start, as the plan orders two cells. noise: Sim::Noise, or a Proc rng -> one value for counts.
  # The other cell's true ratio is `ratio`.
  Design = Struct.new(:n_base, :n_other, :ratio, :noise, :round_sd, :position, :balanced, keyword_init: true) do
    def draw(rng)
      base = []
      other = []
      start = balanced && rng.rand < 0.5
      [n_base, n_other].max.times do |r|
        shared = Math.exp(round_sd * Sim.gaussian(rng))
        other_second = balanced ? (start ^ r.odd?) : rng.rand < 0.5
        b = value(rng, 1.0) * shared * (other_second ? 1.0 : 1 + position)
        o = value(rng, ratio) * shared * (other_second ? 1 + position : 1.0)
        base << [b, r + 1] if r < n_base
        other << [o, r + 1] if r < n_other
      end
      {base: base.map(&:first), other: other.map(&:first), base_rounds: base.map(&:last), other_rounds: other.map(&:last)}
    end

    def value(rng, scale) = noise.respond_to?(:call) ? noise.call(rng) * scale : noise.draw(rng, 1, scale).first
  end

  module_function

  # A count that is 1 or 2 with equal chance (major GCs of a short run): the worst case for a count
  # whose batches look constant by chance.
  def two_valued = ->(rng) { (rng.rand < 0.5) ? 1.0 : 2.0 }

  def lognormal(cv) = Sim::Noise.new(name: "lognormal CV #{(cv * 100).round}%", cv: cv, outlier_p: 0.0, outlier_factor: 1.0)

  # Rates over `draws` comparisons of `design`, paired by round (paired: true) or by Welch's test (the
  # rounds withheld), one comparison per family at `looks` planned looks.
  def rates(design, draws:, seed:, paired:, looks: 1, count: false, alpha: 0.05, margin: 0.02)
    rng = Random.new(seed)
    rates = Rates.new(draws: draws, claims: 0, right: 0, decided: 0, covered: 0)
    draws.times do
      contrast = design.draw(rng)
      contrast = contrast.slice(:base, :other) unless paired
      r = Inference.family([contrast], alpha: alpha, margin: margin, looks: looks, count: count, pairing: paired ? :always : :design).first
      tally(rates, r, design.ratio)
    end
    rates.freeze
  end

  def tally(rates, result, truth)
    claimed = %i[higher lower].include?(result.decision)
    rates.claims += 1 if claimed
    rates.right += 1 if claimed && !Sim.null?(truth) && result.decision == ((truth > 1) ? :higher : :lower)
    rates.decided += 1 if result.decided?
    rates.covered += 1 if result.ci && truth.between?(*result.ci)
  end

  # Whether the estimate of further batches comes true: of `draws` first runs of `design` that are
  # inconclusive and name a count k, the share whose fresh run with n + k batches per runtime (new
  # draws, same design) decides. Returns [Rates of the fresh runs, share of first runs that named a k].
  def batches_needed(design, draws:, seed:, paired: true, alpha: 0.05, margin: 0.02)
    rng = Random.new(seed)
    rates = Rates.new(draws: 0, claims: 0, right: 0, decided: 0, covered: 0)
    named = 0
    draws.times do
      first = Inference.family([design.draw(rng)], alpha: alpha, margin: margin).first
      more = first.reason && first.reason[/about (\d+) more batch/, 1]&.to_i
      next unless first.decision == :inconclusive && more
      named += 1
      fresh = Design.new(**design.to_h, n_base: design.n_base + more, n_other: design.n_other + more)
      contrast = fresh.draw(rng)
      contrast = contrast.slice(:base, :other) unless paired
      rates.draws += 1
      tally(rates, Inference.family([contrast], alpha: alpha, margin: margin).first, design.ratio)
    end
    [rates.freeze, named.fdiv(draws)]
  end
end
