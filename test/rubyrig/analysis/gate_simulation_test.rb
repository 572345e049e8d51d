require "test_helper"
require "support_gate_simulation"

# Seeded Monte Carlo checks of the --fail-if gate on errors (issue 34, item 0): in A/A runs with errors in
# 2% or 10% of the batches of both sides, the gate fails at most 5% of runs at any batch count, and a 0/1
# count (major GCs) is decided to differ at most 5% of the time; a rise in the share of batches with
# errors (0 to 30%, 2% to 30%, 10% to 50%) is compared and, at 30 batches, decided most of the time.
# Upper bounds take 2 standard errors of the simulated rate (Fisher's test is conservative), lower
# bounds 2 as well. bench/statistics-simulation-gate prints the same rows with more draws.
class GateSimulationTest < Minitest::Test
  G = SupportGateSimulation

  def assert_at_most(bound, rate, draws, label)
    limit = bound + 2 * SupportSimulation.standard_error(bound, draws)
    assert_operator rate, :<=, limit, format("%s: %.4f is above %.2f + 2 SE (%.4f)", label, rate, bound, limit)
  end

  def assert_at_least(bound, rate, draws, label)
    limit = bound - 2 * SupportSimulation.standard_error(bound, draws)
    assert_operator rate, :>=, limit, format("%s: %.4f is below %.2f - 2 SE (%.4f)", label, rate, bound, limit)
  end

  def test_the_gate_fails_at_most_five_percent_of_a_over_a_runs_with_errors_on_both_sides
    [3, 5, 10, 30].each do |n|
      [0.02, 0.10].each do |share|
        t = G.run(n: n, base_share: share, other_share: share, draws: 300, seed: 3400 + n * 10 + (share * 100).round)
        assert_at_most 0.05, t.failure_rate, t.draws, "errors in #{(share * 100).round}% of batches on both sides, #{n} batches"
      end
    end
  end

  def test_a_zero_or_one_count_reads_the_same_in_a_over_a_runs
    [[5, 0.5], [10, 0.3], [30, 0.1]].each do |n, share|
      t = G.run(n: n, base_share: share, other_share: share, draws: 300, seed: 3500 + n, metric: "gc_major_count", values: :binary)
      assert_at_most 0.05, t.decided_rate, t.draws, "major GCs 0 or 1 (1 in #{(share * 100).round}% of batches), #{n} batches"
    end
  end

  def test_a_rise_in_errors_is_compared_and_decided_at_thirty_batches
    [[0.0, 0.3, 0.80], [0.02, 0.3, 0.70], [0.10, 0.5, 0.80]].each_with_index do |(from, to, bound), i|
      t = G.run(n: 30, base_share: from, other_share: to, draws: 300, seed: 3600 + i)
      assert_at_least bound, t.rise_rate, t.draws, "errors from #{(from * 100).round}% to #{(to * 100).round}% of batches, 30 batches"
      assert_equal t.rose, t.failed, "every decided rise fails the gate, and nothing else does"
    end
  end
end
