# Seeded Monte Carlo check of what "about N more batches per runtime would decide it 80% of the time if
# the ratio and spread are as measured" promises: first runs of a paired design that are inconclusive and
# name N, each followed by a fresh run of n + N batches a side drawn at the ratio and the spread the first
# run measured. Shared by further_batches_simulation_test.rb and docs/statistics.md's table (pure logic).
require "support_edges_simulation"

module SupportFurtherBatchesSimulation
  E = SupportEdgesSimulation
  Sim = SupportSimulation
  Inference = Rubyrig::Analysis::Inference

  # named: first runs that named a count; decided: their fresh runs that decided (higher, lower or equivalent).
  Outcome = Struct.new(:draws, :named, :decided, keyword_init: true) do
    def decided_rate = decided.fdiv(named)
  end

  module_function

  def run(ratio:, cv:, n:, draws:, seed:, alpha: 0.05, margin: 0.02)
    rng = Random.new(seed)
    design = E::Design.new(n_base: n, n_other: n, ratio: ratio, noise: E.lognormal(cv), round_sd: 0.0, position: 0.0, balanced: false)
    outcome = Outcome.new(draws: draws, named: 0, decided: 0)
    draws.times do
      first = Inference.family([design.draw(rng)], alpha: alpha, margin: margin).first
      more = first.reason && first.reason[/about (\d+) more batch/, 1]&.to_i
      next unless first.decision == :inconclusive && more
      outcome.named += 1
      outcome.decided += 1 if Inference.family([as_measured(first, n, n + more, alpha, rng)], alpha: alpha, margin: margin).first.decided?
    end
    outcome.freeze
  end

  # A fresh paired run of `batches` rounds whose true log ratio and spread are the first run's: its log
  # ratio, and the sd of its paired log ratios recovered from its interval (half-width / t * sqrt(n)),
  # split evenly between the two cells.
  def as_measured(first, n, batches, alpha, rng)
    log_ratio = Math.log(first.ratio)
    se = Math.log(first.ci[1] / first.ratio) / Rubyrig::Stats.t_quantile(1 - alpha / 2, first.df)
    sigma = se * Math.sqrt(n) / Math.sqrt(2)
    rounds = (1..batches).to_a
    {base: rounds.map { Math.exp(sigma * Sim.gaussian(rng)) }, other: rounds.map { Math.exp(log_ratio + sigma * Sim.gaussian(rng)) },
     base_rounds: rounds, other_rounds: rounds}
  end
end
