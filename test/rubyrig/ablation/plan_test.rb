# How `rubyrig why` fits its follow-ups into the budget: every difference's first switch before any
# second one, a follow-up that does not fit skipped with the reason, finished and shared ones free.
require "test_helper"

class AblationPlanTest < Minitest::Test
  Ablation = Rubyrig::Ablation

  def difference(runtime, metric: "iterations_per_s")
    Ablation::Difference.new(cell: runtime, workload: "builtin:w", params: {"threads" => 4}, runtime: runtime, reference: "system",
      metric: metric, ratio: 0.5, ci: [0.4, 0.6], verdict: "slower", factors: [], line: nil).freeze
  end

  def switch(name) = Ablation::Switch.new(name: name, label: name, params: {}, runtimes: {}, experiment: {}, was: "", at: "", reason: "r").freeze

  def plan(candidates, budget_s:, costs: {}, done: [])
    Ablation::Plan.build(candidates, budget_s: budget_s, estimate: ->(d, s) { costs.fetch([d.runtime, s.name], 10.0) },
      done: ->(dir) { done.include?(dir) })
  end

  def test_every_difference_gets_its_first_switch_before_any_gets_a_second
    a = difference("3.3.8")
    b = difference("3.4.1")
    result = plan([[a, [switch("concurrency"), switch("mn")]], [b, [switch("gc"), switch("yjit")]]], budget_s: 25)
    assert_equal [%w[3.3.8 concurrency], %w[3.4.1 gc]], result.steps.map { |s| [s.difference.runtime, s.switch.name] }
    assert_equal %w[mn yjit], result.skipped.map { |s| s.switch.name }
    assert_equal "needs about 10s, 5s of the budget left", result.skipped.first.reason
  end

  def test_a_long_follow_up_is_skipped_and_a_shorter_later_one_still_fits
    a = difference("3.3.8")
    result = plan([[a, [switch("concurrency"), switch("mn"), switch("gc")]]], budget_s: 100, costs: {%w[3.3.8 mn] => 95.0})
    assert_equal %w[concurrency gc], result.steps.map { |s| s.switch.name }
    assert_equal "needs about 1m35s, 1m30s of the budget left", result.skipped.first.reason
    assert_in_delta 20.0, result.steps.sum(&:estimate_s)
  end

  def test_a_follow_up_finished_before_or_shared_by_another_metric_costs_nothing
    speed = difference("3.3.8")
    memory = difference("3.3.8", metric: "peak_rss_bytes")
    finished = File.join(Ablation::DIR, speed.slug, "mn")
    result = plan([[speed, [switch("concurrency"), switch("mn")]], [memory, [switch("concurrency")]]], budget_s: 10, done: [finished])
    assert_equal [nil, "the same follow-up as another metric of this cell", "finished by an earlier `rubyrig why`"], result.steps.map(&:free)
    assert_equal [10.0, 0.0, 0.0], result.steps.map(&:estimate_s)
    assert_empty result.skipped
  end

  def test_durations_read_like_the_budget_is_given
    assert_equal ["9s", "1m15s", "10m"], [9.4, 75, 600].map { |s| Ablation::Plan.duration(s) }
  end
end
