require "test_helper"
require "support_simulation"

# Seeded Monte Carlo checks of the host as a block (Analysis::Strata through Inference): merged runs
# of hosts that differ in speed, with the same true runtime ratio, opposite ones, or none. Rates are
# judged like in InferenceSimulationTest: within two standard errors of the bound, taken at the bound.
# bench/statistics-simulation prints the same simulations with more draws for docs/statistics.md.
class StrataSimulationTest < Minitest::Test
  Sim = SupportSimulation
  CV5 = Sim::Noise.new(name: "lognormal CV 5%", cv: 0.05, outlier_p: 0.0, outlier_factor: 1.0).freeze
  CV20 = Sim::Noise.new(name: "lognormal CV 20%", cv: 0.20, outlier_p: 0.0, outlier_factor: 1.0).freeze
  DRAWS = 2000

  def assert_at_most(bound, rate, trials, label)
    limit = bound + 2 * Sim.standard_error(bound, trials)
    assert_operator rate, :<=, limit, format("%s: %.4f is above %.2f + 2 SE (%.4f)", label, rate, bound, limit)
  end

  def assert_at_least(bound, rate, trials, label)
    limit = bound - 2 * Sim.standard_error(bound, trials)
    assert_operator rate, :>=, limit, format("%s: %.4f is below %.2f - 2 SE (%.4f)", label, rate, bound, limit)
  end

  def test_two_hosts_30_percent_apart_give_a_narrower_interval_than_pooling_and_the_right_verdict
    tally = Sim.hosts(noises: [CV5, CV5], n: 5, speeds: [1.0, 1.3], ratios: [1.1, 1.1], draws: 500, seed: 131)
    assert_operator tally.median_width, :<, 0.5 * tally.median_pooled_width,
      "combined interval (log width #{tally.median_width.round(3)}) against pooled (#{tally.median_pooled_width.round(3)})"
    assert_at_least 0.95, tally.right_rate, tally.draws, "10% at CV 5%, 5 batches per host, called faster"
    assert_operator tally.pooled_right_rate, :<, 0.5, "pooling the hosts hides the 10% change in their 30% gap"
    assert_at_least 0.93, tally.coverage, tally.draws, "combined interval holds the true ratio"
  end

  def test_a_over_a_false_positives_and_heterogeneity_false_alarms_stay_at_most_five_percent
    [
      [[CV5, CV5], 3, [1.0, 1.3]], [[CV5, CV20], 3, [1.0, 1.3]], [[CV5, CV5, CV5], 3, [1.0, 1.3, 0.8]],
      [[CV5] * 4, 2, [1.0, 1.3, 0.8, 1.1]]
    ].each_with_index do |(noises, n, speeds), i|
      label = "#{speeds.size} hosts, CVs #{noises.map(&:cv).join("/")}, #{n} batches per host"
      tally = Sim.hosts(noises: noises, n: n, speeds: speeds, ratios: [1.0] * speeds.size, draws: DRAWS, seed: 140 + i)
      assert_at_most 0.05, tally.claim_rate, tally.draws, "#{label}: called faster or slower"
      assert_at_most 0.05, tally.warning_rate, tally.draws, "#{label}: hosts said to disagree"
      assert_at_least 0.93, tally.coverage, tally.draws, "#{label}: coverage"
    end
  end

  def test_hosts_with_opposite_effects_trigger_the_heterogeneity_warning
    tally = Sim.hosts(noises: [CV5, CV5], n: 3, speeds: [1.0, 1.3], ratios: [1.2, 1 / 1.2], draws: 500, seed: 150)
    assert_at_least 0.95, tally.warning_rate, tally.draws, "opposite 20% effects on two hosts"
    odd = Sim.hosts(noises: [CV5] * 3, n: 3, speeds: [1.0, 1.3, 0.8], ratios: [1.1, 1.1, 0.8], draws: 500, seed: 151, odd: "host-3")
    assert_at_least 0.9, odd.warning_rate, odd.draws, "one host of three going the other way"
    assert_at_least 0.9, odd.odd_named_rate, odd.warnings, "the warning names that host"
  end

  def test_a_warning_names_both_hosts_when_there_are_two
    hosts = %w[a a a b b b]
    result = Rubyrig::Analysis::Inference.family([{base: [1.0, 1.01, 0.99, 1.3, 1.31, 1.29],
                                                   other: [1.2, 1.21, 1.19, 1.3 / 1.2, 1.31 / 1.2, 1.29 / 1.2], base_hosts: hosts, other_hosts: hosts}]).first
    assert result.heterogeneity.disagree
    assert_equal %w[a b], result.heterogeneity.odd_hosts
    assert_equal %w[a b], result.hosts.map(&:host)
    assert_in_delta 1.2, result.hosts.first.ratio, 0.01
  end
end
