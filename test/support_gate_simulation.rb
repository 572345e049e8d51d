# Seeded Monte Carlo runs of the --fail-if gate on error counts and of batches-with-any comparisons
# (Analysis::Contrasts, Analysis::Gate): each batch has errors with a given chance, and a batch with
# errors has 1 to 50 of them. Shared by gate_simulation_test.rb and bench/statistics-simulation-gate
# (pure logic, no I/O).
require "support_simulation"

module SupportGateSimulation
  Analysis = Rubyrig::Analysis
  # The two fields of a finished report that Gate.failures reads.
  Report = Struct.new(:comparisons, keyword_init: true) do
    def primary_metric(_workload) = "iterations_per_s"
  end
  # Out of `draws` runs: the gate failed, the verdict was decided (appeared, disappeared, higher or
  # lower), the verdict was "appeared" or "higher" (a rise, decided).
  Tally = Struct.new(:draws, :failed, :decided, :rose, keyword_init: true) do
    def failure_rate = failed.fdiv(draws)

    def decided_rate = decided.fdiv(draws)

    def rise_rate = rose.fdiv(draws)
  end

  module_function

  # One side's batches: each has errors with chance `share`, then 1 to 50 of them.
  def side(rng, n, share) = Array.new(n) { (rng.rand < share) ? 1.0 + rng.rand(50) : 0.0 }

  # A 0/1 count (a major GC or none) with chance `share` of 1.
  def binary(rng, n, share) = Array.new(n) { (rng.rand < share) ? 1.0 : 0.0 }

  # `draws` runs of `runtimes` runtimes against a baseline, n batches each; errors in base_share of the
  # baseline's batches and other_share of each other runtime's; metric error_count, gate --fail-if
  # slower (any gate fails on errors). values: :errors (1 to 50 per batch with any) or :binary (0 or 1).
  def run(n:, base_share:, other_share:, draws:, seed:, runtimes: 1, metric: "error_count", values: :errors)
    rng = Random.new(seed)
    draw = (values == :binary) ? method(:binary) : method(:side)
    gate = [Analysis::Gate.parse("slower")]
    tally = Tally.new(draws: draws, failed: 0, decided: 0, rose: 0)
    draws.times do
      base = draw.call(rng, n, base_share)
      family = Array.new(runtimes) do |i|
        {runtime: "r#{i}", baseline: "base", workload: "w", params: {}, base: base, other_values: draw.call(rng, n, other_share)}
      end
      comparisons = Analysis::Contrasts.decide(family, metric: metric, margin: 0.02)
      tally.failed += 1 unless Analysis::Gate.failures(Report.new(comparisons: comparisons), gate).empty?
      verdicts = comparisons.map(&:verdict)
      tally.decided += 1 if verdicts.any? { |v| %w[appeared disappeared higher lower].include?(v) }
      tally.rose += 1 if verdicts.any? { |v| %w[appeared higher].include?(v) }
    end
    tally.freeze
  end
end
