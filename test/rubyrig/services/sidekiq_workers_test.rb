# Tests how the metrics of several worker processes become the pool's: totals, and YJIT's ratio averaged.
require "test_helper"

class SidekiqWorkersTest < Minitest::Test
  Outcome = Struct.new(:metrics)

  def test_sums_resources_over_workers_and_averages_the_yjit_ratio
    outcomes = [
      Outcome.new({"cpu_user_s" => 1.0, "peak_rss_bytes" => 100, "end_pss_bytes" => 40, "wall_s" => 9.0, "yjit_ratio_in_yjit" => 0.9}),
      Outcome.new({"cpu_user_s" => 2.0, "peak_rss_bytes" => 300, "end_pss_bytes" => 60, "wall_s" => 8.0, "yjit_ratio_in_yjit" => 0.7})
    ]
    m = Rubyrig::Services::SidekiqWorkers.metrics(outcomes)
    assert_in_delta 3.0, m["cpu_user_s"], 1e-12
    assert_equal 400, m["peak_rss_bytes"]
    assert_equal 100, m["end_pss_bytes"]
    assert_in_delta 0.8, m["yjit_ratio_in_yjit"], 1e-12
    refute m.key?("wall_s"), "a worker's lifetime is not the batch's wall time"
  end

  def test_a_metric_missing_from_one_worker_is_left_out_rather_than_undercounted
    outcomes = [Outcome.new({"end_pss_bytes" => 40}), Outcome.new({})]
    refute Rubyrig::Services::SidekiqWorkers.metrics(outcomes).key?("end_pss_bytes")
  end
end
