# How long `rubyrig why` expects a follow-up to take: the original run's batches of the cell on each
# runtime, the follow-up's batches and cells, the run's overhead between batches and a run's start.
require "test_helper"

class AblationCostTest < Minitest::Test
  Ablation = Rubyrig::Ablation

  DIFFERENCE = Ablation::Difference.new(cell: "3.3.8 | builtin:w | threads=4", workload: "builtin:w", params: {"threads" => 4},
    runtime: "3.3.8", reference: "system", metric: "iterations_per_s", ratio: 0.2, ci: [0.1, 0.3], verdict: "slower", factors: [], line: nil).freeze

  def trial(runtime, duration_s, status: "ok", diagnostic: nil)
    Rubyrig::Results::Trial.new(batch_id: "b", cell_key: "#{runtime} | builtin:w | threads=4", runtime: runtime, workload: "builtin:w",
      status: status, metrics: {}, duration_s: duration_s, diagnostic: diagnostic)
  end

  def run_meta(elapsed_s) = Rubyrig::Results::RunMeta.new("created_at" => "2026-11-26T02:00:00Z", "finished_at" => (Time.utc(2026, 11, 26, 2) + elapsed_s).iso8601)

  def switch(params) = Ablation::Switch.new(name: "concurrency", label: "t", params: params, runtimes: {}, experiment: {})

  def test_the_estimate_adds_both_runtimes_batches_per_cell_times_the_runs_overhead
    trials = [trial("system", 1.0), trial("system", 3.0), trial("3.3.8", 4.0), trial("3.3.8", 4.0),
      trial("3.3.8", 100.0, status: "failed"), trial("3.3.8", 100.0, diagnostic: "profile")]
    cost = Ablation::Cost.new(trials: trials, run: run_meta(18))
    # (2 s + 4 s) per round, 1.5 times the batches' own 12 s in the run's 18 s, two cells, five batches
    assert_in_delta Ablation::Cost::RUN_START_S + 6.0 * 1.5 * 2 * 5, cost.estimate_s(DIFFERENCE, switch({"threads" => [1, 2]}), 5)
    assert_in_delta Ablation::Cost::RUN_START_S + 6.0 * 1.5 * 3, cost.estimate_s(DIFFERENCE, switch({}), 3)
  end

  def test_the_overhead_is_bounded_and_a_cell_without_batches_takes_the_runs_mean
    cost = Ablation::Cost.new(trials: [trial("system", 2.0)], run: run_meta(3600))
    assert_in_delta Ablation::Cost::RUN_START_S + (2.0 + 2.0) * Ablation::Cost::OVERHEAD.max, cost.estimate_s(DIFFERENCE, switch({}), 1)
  end
end
