# Seeded Monte Carlo runs of a family of runtimes against one baseline, batches in rounds that share a
# common factor (a within-round correlation rho of the log values), decided by Analysis::Inference three
# ways: Welch's test (rounds withheld), the paired test wherever the rounds allow (pairing: :always),
# and rubyrig's default, which pairs where the design says it pays (Pairing.worth?). Shared by
# pairing_simulation_test.rb and bench/statistics-simulation-pairing (pure logic, no I/O).
require "support_simulation"

module SupportPairingSimulation
  Inference = Rubyrig::Analysis::Inference
  Sim = SupportSimulation
  METHODS = %i[welch paired rule].freeze

  # Out of `draws` families of `runtimes` comparisons: comparisons called in the true direction (or, for
  # a true ratio of 1, called at all), and families where every comparison was.
  Tally = Struct.new(:draws, :runtimes, :called, :all_called, keyword_init: true) do
    def rate = called.fdiv(draws * runtimes)

    def all_rate = all_called.fdiv(draws)
  end

  module_function

  # {method => Tally}: the same draws decided each way (methods: some of METHODS). cv: each batch's own noise (lognormal, median
  # 1); rho: the share of the log variance that a round's shared factor carries.
  def run(n:, runtimes:, ratio:, cv:, rho:, draws:, seed:, methods: METHODS)
    rng = Random.new(seed)
    own = Math.sqrt(Math.log(1 + cv**2))
    shared = own * Math.sqrt(rho / (1 - rho))
    tallies = methods.to_h { |m| [m, Tally.new(draws: draws, runtimes: runtimes, called: 0, all_called: 0)] }
    rounds = {base_rounds: (1..n).to_a, other_rounds: (1..n).to_a}
    draws.times do
      factor = Array.new(n) { Math.exp(shared * Sim.gaussian(rng)) }
      side = ->(scale) { factor.map { |f| scale * f * Math.exp(own * Sim.gaussian(rng)) } }
      base = side.call(1.0)
      family = Array.new(runtimes) { {base: base, other: side.call(ratio), **rounds} }
      methods.each { |m| tally(tallies[m], decide(family, m), ratio) }
    end
    tallies.transform_values(&:freeze)
  end

  def decide(family, method)
    case method
    when :welch then Inference.family(family.map { |c| c.slice(:base, :other) })
    when :paired then Inference.family(family, pairing: :always)
    else Inference.family(family)
    end
  end

  def tally(t, results, ratio)
    right = if Sim.null?(ratio) then %i[higher lower]
    else [(ratio > 1) ? :higher : :lower]
    end
    hits = results.count { |r| right.include?(r.decision) }
    t.called += hits
    t.all_called += 1 if hits == results.size
  end
end
