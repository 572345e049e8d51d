require "test_helper"
require "support_pairing_simulation"

# Seeded Monte Carlo checks that pairing by round never costs power against Welch's test where the
# design says it would (issue 34, item 0): the rule (Pairing.worth?) reads batch counts and the
# corrected level only, so at 3 batches and 7 runtimes it keeps Welch's degrees of freedom and calls all
# seven runtimes as often as Welch does (the paired t on 2 df almost never does), and where it pairs (10
# batches) it is at least as powerful as Welch when rounds share something, and keeps its level when they
# share nothing. bench/statistics-simulation-pairing prints the full tables for docs/statistics.md.
class PairingSimulationTest < Minitest::Test
  S = SupportPairingSimulation

  def test_seven_runtimes_at_three_batches_keep_welchs_power
    t = S.run(n: 3, runtimes: 7, ratio: 1.5, cv: 0.05, rho: 0.0, draws: 120, seed: 3401, methods: %i[welch rule])
    assert_equal t[:welch].all_called, t[:rule].all_called, "the rule uses Welch's test here"
    assert_operator t[:rule].all_rate, :>=, 0.35, "all seven called at 1.5x, CV 5%, 3 batches (54% in the bench)"
  end

  def test_where_the_rule_pairs_it_gains_power_from_shared_rounds_and_keeps_its_level
    gain = S.run(n: 10, runtimes: 1, ratio: 1.05, cv: 0.05, rho: 0.39, draws: 400, seed: 3402, methods: %i[welch rule])
    assert_operator gain[:rule].rate, :>=, gain[:welch].rate, "1.05x at CV 5%, 10 batches, rounds sharing 39% of the variance"
    aa = S.run(n: 10, runtimes: 1, ratio: 1.0, cv: 0.05, rho: 0.0, draws: 1000, seed: 3403, methods: %i[rule])
    limit = 0.05 + 3 * SupportSimulation.standard_error(0.05, 1000)
    assert_operator aa[:rule].rate, :<=, limit, "A/A at 10 batches, rounds sharing nothing (the paired t is exact here)"
  end
end
