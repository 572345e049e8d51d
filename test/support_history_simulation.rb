# Seeded Monte Carlo runs of Analysis::ChangePoints on synthetic series of runs, shared by
# change_points_simulation_test.rb and bench/history-simulation (pure logic, no I/O).
require "rubyrig"

module SupportHistorySimulation
  ChangePoints = Rubyrig::Analysis::ChangePoints

  # A series of a duration metric (lower is better): `runs` runs of `batches` batches; from run step_at
  # on, every value is `step` times the level before (nil: no step); `drift` is a total change spread
  # linearly over the runs (1.05: 5% slower by the last run; nil: none). Each batch has lognormal noise of
  # CV `cv`, each run a factor of its own of CV `run_cv` (another boot, another moment of the host).
  Scenario = Struct.new(:runs, :batches, :cv, :run_cv, :step, :step_at, :drift, keyword_init: true) do
    def level(run)
      shifted = (step && run >= step_at) ? step : 1.0
      shifted * (drift || 1.0)**run.fdiv([runs - 1, 1].max)
    end
  end

  # Out of `draws` series: candidates (the permutation test kept one anywhere), changed (any change
  # point decided), near (a change point in the true direction within one run of the true step), exact
  # (at the true run), elsewhere (a change point more than one run away), covered (of the near ones,
  # the interval held the true step).
  Tally = Struct.new(:draws, :candidates, :changed, :near, :exact, :elsewhere, :covered, keyword_init: true) do
    def rate(field) = self[field].fdiv(draws)

    def coverage = near.zero? ? nil : covered.fdiv(near)
  end

  module_function

  def scenario(runs: 40, batches: 5, cv: 0.02, run_cv: 0.0, step: nil, step_at: nil, drift: nil)
    Scenario.new(runs: runs, batches: batches, cv: cv, run_cv: run_cv, step: step, step_at: step_at || runs / 2, drift: drift).freeze
  end

  def gaussian(rng) = Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand)

  def sigma(cv) = Math.sqrt(Math.log(1 + cv * cv))

  def series(scenario, rng)
    Array.new(scenario.runs) do |r|
      run_factor = Math.exp(sigma(scenario.run_cv) * gaussian(rng))
      Array.new(scenario.batches) { scenario.level(r) * run_factor * Math.exp(sigma(scenario.cv) * gaussian(rng)) }
    end
  end

  # The data and the permutations draw from separate seeded generators, so that a change in the
  # detection does not change the series simulated.
  def run(scenario, draws:, seed:, margin: 0.02)
    data = Random.new(seed)
    tally = Tally.new(draws: draws, candidates: 0, changed: 0, near: 0, exact: 0, elsewhere: 0, covered: 0)
    draws.times do |i|
      points = ChangePoints.of(series(scenario, data), higher_is_better: false, margin: margin, seed: seed * 100_000 + i)
      count(tally, scenario, points)
    end
    tally.freeze
  end

  # The verdict of a true step of a duration metric.
  def direction(step) = (step > 1) ? "slower" : "faster"

  def count(tally, scenario, points)
    changes = points.select(&:change?)
    tally.candidates += 1 unless points.empty?
    tally.changed += 1 unless changes.empty?
    near = scenario.step ? changes.select { |p| (p.index - scenario.step_at).abs <= 1 && p.verdict == direction(scenario.step) } : []
    tally.near += 1 unless near.empty?
    tally.exact += 1 if near.any? { |p| p.index == scenario.step_at }
    tally.elsewhere += 1 if (changes - near).any?
    tally.covered += 1 if near.any? { |p| scenario.step.between?(p.low, p.high) }
  end
end
