require "test_helper"
require "support_simulation"
require "support/why_simulation"

# The A/A guarantee of the Why section, measured (docs/why.md, "The A/A guarantee"): seeded A/A pairs
# with every component of speed and memory (test/support/why_simulation.rb) name a factor in at most 5%
# of reports, and in at most 5% of pairs even when their comparisons are explained whatever their
# verdicts, so that the naming rule itself is exercised: in most such pairs some component is large
# enough to be judged. A rate from N draws meets the bound b when it is at most b + 2 sqrt(b (1 - b) / N).
# bench/why-simulation prints the same rows with more draws for docs/why.md.
class WhySimulationTest < Minitest::Test
  DRAWS = 150

  def test_a_over_a_pairs_name_no_factor_in_more_than_five_percent
    [3, 10].each_with_index do |batches, i|
      WhySimulation::NOISES.each_with_index do |noise, j|
        row = WhySimulation.row(batches: batches, noise: noise, draws: DRAWS, seed: 3400 + 10 * i + j)
        label = "#{batches} batches, #{noise.name}"
        limit = 0.05 + 2 * SupportSimulation.standard_error(0.05, DRAWS)
        assert_operator row.examined_rate, :>=, 0.5, "#{label}: the naming rule judged a component in most pairs"
        assert_operator row.forced_rate, :<=, limit, "#{label}: any factor named with the comparisons explained anyway"
        assert_operator row.named_rate, :<=, limit, "#{label}: any factor named in the report"
      end
    end
  end
end
