# The capacity search against simulated servers (support/queue_simulation.rb, seeded): one FIFO server
# with a fixed service time, whose capacity is known by construction (1/service time with constant
# arrivals; Erlang's M/D/1 formula with Poisson ones), a load generator that falls behind, a server
# that is never overloaded, one that sustains nothing.
require "test_helper"
require "support/queue_simulation"

class CapacitySearchTest < Minitest::Test
  Search = Rubyrig::Kinds::Http::CapacitySearch
  SETTINGS = Rubyrig::Kinds::Http::Capacity::DEFAULTS

  def objective(text = "p99 < 200ms") = Rubyrig::Kinds::Http::Objective.parse(text, max_error_rate: 0.01).first

  def search(probe, start: 10, settings: {}, slo: "p99 < 200ms")
    Search.new(settings: SETTINGS.merge(settings), objective: objective(slo), start_rate_per_s: start, probe: probe).run
  end

  def test_a_server_of_10_ms_with_constant_arrivals_sustains_within_10_percent_of_100_per_s
    probe = QueueSimulation.probe(service_s: 0.01, arrival: "constant", step_s: 5, warmup_s: 2, seed: 1)
    outcome = search(probe, start: 13)
    assert outcome.server_limited?, outcome.inspect
    assert_equal Search::OBJECTIVE, outcome.limit
    assert_operator outcome.failed_at_per_s / outcome.capacity_per_s, :<=, 1.05
    # The objective (p99 under 20 service times) and the tolerance (5%) both allow a little overload
    # in a 7 s step: up to 1.05 x 100/s at most; the resolution costs at most 5% below.
    assert_operator outcome.capacity_per_s, :>=, 100 / 1.05 / 1.05
    assert_operator outcome.capacity_per_s, :<=, 105
    rates = outcome.steps.map(&:rate_per_s)
    assert_equal [13, 26, 52, 104, 104, 74], rates.first(6).map(&:round), "grows by 2 until a step fails twice, then bisects"
    assert(outcome.steps.reject(&:sustained?).group_by(&:rate_per_s).values.all? { |tries| tries.size == 2 }, "each failed rate tried twice")
  end

  def test_with_poisson_arrivals_it_finds_the_rate_erlangs_m_d_1_formula_gives
    d = 0.01
    expected = QueueSimulation.md1_rate_at(0.99, 0.2, d)
    assert_in_delta 0.886, expected * d, 0.001, "p99 < 20 service times holds up to 88.6% utilisation"
    probe = QueueSimulation.probe(service_s: d, arrival: "poisson", step_s: 1000, warmup_s: 20, seed: 7)
    outcome = search(probe, start: 11, settings: {"tolerance" => 0.02})
    assert outcome.server_limited?, outcome.inspect
    # Long simulated steps leave the p99's sampling error a few per cent of the rate at most.
    assert_operator outcome.capacity_per_s, :<=, expected * 1.03
    assert_operator outcome.capacity_per_s, :>=, expected / 1.05 / 1.03
  end

  def test_two_servers_whose_service_times_differ_by_2x_sustain_rates_2x_apart
    found = [0.01, 0.02].map do |service_s|
      probe = QueueSimulation.probe(service_s: service_s, arrival: "constant", step_s: 5, warmup_s: 2, seed: 3)
      search(probe, start: 9, slo: "p99 < #{(service_s * 20 * 1000).round}ms").capacity_per_s
    end
    assert_in_delta 2.0, found[0] / found[1], 0.2
  end

  def test_a_generator_that_falls_behind_is_the_limit_and_the_capacity_is_not_the_servers
    probe = QueueSimulation.probe(service_s: 0.001, arrival: "constant", step_s: 5, warmup_s: 1, seed: 1, generator_max_per_s: 300)
    outcome = search(probe)
    assert_equal Search::GENERATOR, outcome.limit
    refute outcome.server_limited?
    assert_operator outcome.capacity_per_s, :<=, 300
    assert_operator outcome.capacity_per_s, :>=, 300 / 1.05
    assert_equal "the load generator fell behind the offered rate", outcome.steps.find { |s| s.rate_per_s == outcome.failed_at_per_s }.miss
  end

  def test_a_start_above_capacity_shrinks_then_bisects
    probe = QueueSimulation.probe(service_s: 0.05, arrival: "constant", step_s: 5, warmup_s: 2, seed: 1)
    outcome = search(probe, start: 100, slo: "p99 < 1s")
    rates = outcome.steps.map(&:rate_per_s)
    assert_equal [100, 100, 50, 50, 25, 25, 12.5], rates.first(7)
    assert outcome.server_limited?
    assert_operator outcome.capacity_per_s, :<=, 21
    assert_operator outcome.capacity_per_s, :>=, 20 / 1.05 / 1.05
  end

  def test_one_stall_does_not_end_the_search
    calls = Hash.new(0)
    server = QueueSimulation.probe(service_s: 0.01, arrival: "constant", step_s: 5, warmup_s: 2, seed: 1)
    stalled = ->(rate) { (rate == 26 && (calls[rate] += 1) == 1) ? QueueSimulation::Measured.new(**server.call(rate).to_h, latency_s: {"p99" => 0.6}) : server.call(rate) }
    outcome = search(stalled, start: 13)
    assert_equal [13, 26, 26, 52, 104, 104], outcome.steps.first(6).map { |s| s.rate_per_s.round }
    assert_equal [true, false, true], outcome.steps.first(3).map(&:sustained?)
    assert_operator outcome.capacity_per_s, :>, 90
  end

  def test_a_server_that_sustains_nothing_has_no_capacity
    probe = QueueSimulation.probe(service_s: 2.0, arrival: "constant", step_s: 5, warmup_s: 0, seed: 1)
    outcome = search(probe, slo: "p99 < 100ms")
    assert_nil outcome.capacity_per_s
    refute outcome.server_limited?
    assert_operator outcome.steps.last.rate_per_s * 5, :>=, Search::MIN_REQUESTS
    assert_operator outcome.steps.last.rate_per_s * 5 / 2, :<, Search::MIN_REQUESTS
  end

  def test_steps_run_out_before_anything_fails
    probe = QueueSimulation.probe(service_s: 0.0001, arrival: "constant", step_s: 1, warmup_s: 0, seed: 1)
    outcome = search(probe, settings: {"max_steps" => 4})
    assert_equal 4, outcome.steps.size
    assert_equal Search::STEPS, outcome.limit
    assert_nil outcome.failed_at_per_s
    assert_equal 80, outcome.capacity_per_s
  end

  def test_why_a_step_is_not_sustained
    s = Search.new(settings: SETTINGS, objective: objective("p99 < 50ms"), start_rate_per_s: 1, probe: nil)
    at = lambda do |**given|
      QueueSimulation::Measured.new(offered_rate_per_s: 100, achieved_rate_per_s: 98, requests: 480, duration_s: 5, behind: false, error_rate: 0.0,
        latency_s: {"p99" => 0.01}, **given)
    end
    assert_nil s.miss(at.call)
    assert_equal "p99 60 ms is not < 50 ms", s.miss(at.call(latency_s: {"p99" => 0.06}))
    assert_equal "error rate 2.00% is above max_error_rate 1.00%", s.miss(at.call(error_rate: 0.02))
    assert_equal "answered 88/s, 10.2% below the 98/s started (a backlog grew)", s.miss(at.call(requests: 440))
    assert_equal "the load generator fell behind the offered rate", s.miss(at.call(behind: true, latency_s: {"p99" => 9.0}))
  end

  def test_each_step_keeps_its_rates_and_percentiles_for_the_batch_samples
    probe = QueueSimulation.probe(service_s: 0.01, arrival: "constant", step_s: 2, warmup_s: 0, seed: 1)
    step = search(probe, settings: {"max_steps" => 2}).steps.first.to_h
    assert_equal 10, step["offered_rate_per_s"]
    assert_in_delta 10, step["achieved_rate_per_s"], 0.5
    assert_in_delta 10, step["answered_per_s"], 0.5
    assert_in_delta 0.01, step["latency_p99_s"], 1e-9
    assert_equal true, step["sustained"]
    assert_equal false, step["behind"]
    refute step.key?("miss")
  end

  def test_batches_start_at_rates_spread_evenly_over_one_growth_step
    starts = (1..10).map { |n| Rubyrig::Kinds::Http::Capacity.start_rate_per_s(SETTINGS, n) }
    assert(starts.all? { |r| r >= 10 && r < 20 })
    gaps = starts.map { |r| Math.log2(r / 10.0) }.sort.each_cons(2).map { |a, b| b - a }
    assert_operator gaps.max, :<, 0.2, "no wide gap between the batches' grids: #{starts.map { |r| r.round(2) }}"
  end
end
