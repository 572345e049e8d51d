# The words of `rubyrig why` against the truth, by seeded simulation (test/support_why_words_simulation.rb;
# bench/why-words prints the full table of docs/why-command.md): "closes the gap" is said rarely of a
# switch that removes nothing or half of the gap, and mostly of one that removes all of it.
require "test_helper"
require "support_why_words_simulation"

class AblationOutcomeSimulationTest < Minitest::Test
  Sim = WhyWordsSimulation
  DRAWS = 300

  def tally(gap, n, cv, removed, seed) = Sim.tally(Sim::Design.new(gap: gap, removed: removed, n: n, cv: cv), draws: DRAWS, seed: seed)

  # A clear gap at few batches and a barely decided one (its run kept only when decided: the share is
  # then overestimated, the harder case).
  DESIGNS = [[0.5, 3, 0.10], [0.9, 5, 0.05]].freeze

  def test_closes_is_said_rarely_when_the_switch_removes_nothing_or_half
    DESIGNS.each_with_index do |(gap, n, cv), i|
      [0.0, 0.5].each do |removed|
        t = tally(gap, n, cv, removed, 10 * i + (removed * 2).to_i)
        assert_operator t.kept, :>=, DRAWS / 2, "the run decides the gap in most draws"
        assert_operator t.rate("closes the gap"), :<=, 0.05, "gap #{gap}x, #{n} batches, CV #{cv}, removes #{removed}: #{t.words}"
      end
    end
  end

  def test_a_switch_that_removes_nothing_is_rarely_said_to_narrow_and_one_that_removes_all_mostly_closes
    nothing = tally(0.5, 5, 0.05, 0.0, 31)
    assert_operator nothing.rate("narrows it") + nothing.rate("closes the gap"), :<=, 0.05, nothing.words.to_s
    all = tally(0.5, 5, 0.05, 1.0, 32)
    assert_operator all.rate("closes the gap"), :>=, 0.8, all.words.to_s
  end
end
