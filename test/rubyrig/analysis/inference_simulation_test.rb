require "test_helper"
require "support_simulation"

# Seeded Monte Carlo checks of Analysis::Inference and Analysis::Sequential against the targets of
# issue 11. A simulated rate r from N independent trials meets a bound b when it is within two
# standard errors of it, the standard error taken at the bound: r <= b + 2 sqrt(b (1 - b) / N) for an
# upper bound, r >= b - 2 sqrt(b (1 - b) / N) for a lower one. Rates near a bound use 2000 draws (a
# standard error under 0.5 percentage point at 5%); rates far from theirs use fewer.
# bench/statistics-simulation runs the same simulations with more draws for docs/statistics.md.
class InferenceSimulationTest < Minitest::Test
  Sim = SupportSimulation
  BATCHES = [3, 5, 10].freeze
  # Eight runtimes against one shared baseline: four the same as the baseline, four different.
  EIGHT = [1.0, 1.0, 1.0, 1.0, 0.5, 0.8, 1.25, 2.0].freeze
  DRAWS = 2000

  # Each fixed-batch simulation runs once per test process, whichever test asks first, with a seed of
  # its own.
  def self.fixed(noise_index, n, ratios, draws: DRAWS)
    @fixed ||= {}
    seed = [noise_index, n, *ratios.map { |r| (r * 1000).round }].reduce { |acc, x| acc * 31 + x }
    @fixed[[noise_index, n, ratios, draws]] ||= Sim.fixed(noise: Sim::NOISES[noise_index], n: n, ratios: ratios,
      draws: draws, seed: seed)
  end

  def assert_at_most(bound, rate, trials, label)
    limit = bound + 2 * Sim.standard_error(bound, trials)
    assert_operator rate, :<=, limit, format("%s: %.4f is above %.2f + 2 SE (%.4f)", label, rate, bound, limit)
  end

  def assert_at_least(bound, rate, trials, label)
    limit = bound - 2 * Sim.standard_error(bound, trials)
    assert_operator rate, :>=, limit, format("%s: %.4f is below %.2f - 2 SE (%.4f)", label, rate, bound, limit)
  end

  def each_case
    Sim::NOISES.each_index do |i|
      BATCHES.each { |n| yield i, n, "#{Sim::NOISES[i].name}, #{n} batches" }
    end
  end

  def test_a_over_a_false_positive_rate_is_at_most_five_percent_per_comparison
    each_case do |i, n, label|
      one = self.class.fixed(i, n, [1.0])
      assert_at_most 0.05, one.false_positive_rate, one.nulls, "#{label}, 1 runtime"
      # With heavy tails no rate is near its bound (the interval widens), so fewer draws do.
      eight = self.class.fixed(i, n, EIGHT, draws: Sim::NOISES[i].lognormal? ? DRAWS : DRAWS / 2)
      assert_at_most 0.05, eight.false_positive_rate, eight.nulls, "#{label}, 8 runtimes"
    end
  end

  def test_one_comparison_interval_covers_the_true_ratio_93_to_97_percent_of_the_time
    each_case do |i, n, label|
      next unless Sim::NOISES[i].lognormal?
      tally = self.class.fixed(i, n, [1.3])
      assert_at_least 0.93, tally.coverage, tally.draws, label
      assert_at_most 0.97, tally.coverage, tally.draws, label
    end
  end

  def test_eight_corrected_intervals_cover_all_true_ratios_at_once_in_95_percent_of_draws
    each_case do |i, n, label|
      next unless Sim::NOISES[i].lognormal?
      tally = self.class.fixed(i, n, EIGHT)
      assert_at_least 0.95, tally.simultaneous_coverage, tally.draws, label
    end
  end

  def test_power_for_the_changes_the_issue_names
    double = self.class.fixed(1, 3, [2.0], draws: 500)
    assert_at_least 0.95, double.power, double.draws, "2x at CV 5%, 3 batches"
    small = Sim.fixed(noise: Sim::Noise.new(name: "lognormal CV 2%", cv: 0.02, outlier_p: 0.0, outlier_factor: 1.0),
      n: 5, ratios: [1.05], draws: 1000, seed: 77)
    assert_at_least 0.80, small.power, small.draws, "5% at CV 2%, 5 batches"
    eight = self.class.fixed(1, 5, [2.0] * 8, draws: 500)
    assert_at_least 0.95, eight.power, eight.draws, "2x at CV 5%, 5 batches, 8 runtimes"
  end

  def test_equivalence_is_shown_for_a_true_ratio_of_one_and_never_for_five_percent
    same = self.class.fixed(0, 10, [1.0])
    assert_at_least 0.80, same.equivalent_rate, same.draws, "ratio 1.00 at CV 1%, 10 batches"
    [0, 1].each do |i|
      BATCHES.each do |n|
        off = self.class.fixed(i, n, [1.05], draws: 500)
        assert_at_most 0.05, off.equivalent_rate, off.draws, "ratio 1.05, #{Sim::NOISES[i].name}, #{n} batches"
      end
    end
  end

  def test_sequential_looks_keep_the_a_over_a_false_positive_rate_at_most_five_percent
    tally = Sim.sequential(noise: Sim::NOISES[1], ratios: [1.0], draws: DRAWS, seed: 91, max_batches: 30)
    assert_at_most 0.05, tally.false_positive_rate, tally.nulls, "A/A up to 30 batches, any look"
  end

  def test_sequential_decides_a_ten_percent_change_well_before_the_maximum
    tally = Sim.sequential(noise: Sim::NOISES[1], ratios: [1.1], draws: 500, seed: 92, max_batches: 30)
    assert_at_least 0.95, tally.power, tally.draws, "10% at CV 5%, called higher"
    # Every run makes at least the first look; a clear change should rarely need the later ones.
    assert_operator tally.mean_batches, :>=, 3
    assert_operator tally.mean_batches, :<, 15, "mean batches to a decision"
  end
end
