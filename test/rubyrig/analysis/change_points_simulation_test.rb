require "test_helper"
require "support_history_simulation"

# Seeded Monte Carlo checks of change points (issue 36): a 5% step at run 20 of 40 at CV 2% with 5
# batches a run is a change point within one run of the truth in at least 90% of series; flat series
# have one in at most 5%, with noise between runs too. Bounds take 2 standard errors of the simulated
# rate; the rates measured (docs/history.md, bench/history-simulation 1000) are far enough inside them
# that these seeds decide. bench/history-simulation prints the same rows with more draws.
class ChangePointsSimulationTest < Minitest::Test
  H = SupportHistorySimulation

  def assert_at_most(bound, rate, draws, label)
    limit = bound + 2 * Math.sqrt(bound * (1 - bound) / draws)
    assert_operator rate, :<=, limit, format("%s: %.4f is above %.2f + 2 SE (%.4f)", label, rate, bound, limit)
  end

  def assert_at_least(bound, rate, draws, label)
    limit = bound - 2 * Math.sqrt(bound * (1 - bound) / draws)
    assert_operator rate, :>=, limit, format("%s: %.4f is below %.2f - 2 SE (%.4f)", label, rate, bound, limit)
  end

  def test_a_five_percent_step_is_found_within_one_run_in_nine_series_of_ten
    t = H.run(H.scenario(step: 1.05), draws: 100, seed: 3601)
    assert_at_least 0.90, t.rate(:near), t.draws, "5% step at run 20 of 40"
  end

  def test_flat_series_have_a_change_point_in_at_most_five_percent
    t = H.run(H.scenario, draws: 250, seed: 3602)
    assert_at_most 0.05, t.rate(:changed), t.draws, "flat, 40 runs"
    assert_at_most 0.05, t.rate(:candidates), t.draws, "flat, 40 runs: candidates of the permutation test"
  end

  def test_flat_series_with_noise_between_runs_have_a_change_point_in_at_most_five_percent
    t = H.run(H.scenario(run_cv: 0.01), draws: 150, seed: 3603)
    assert_at_most 0.05, t.rate(:changed), t.draws, "flat, 40 runs, run CV 1%"
  end
end
