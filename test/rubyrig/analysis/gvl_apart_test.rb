require "test_helper"
require "support_report"

# GVL metrics measured apart (a "gvl" diagnostic batch per cell): summarized for the cell, never in its
# comparisons or its speed statistics, and the report says where they come from.
class GvlApartAnalysisTest < Minitest::Test
  include SupportReport

  def test_a_gvl_batch_gives_the_cell_its_gvl_figures_and_nothing_else
    meta = synthetic_meta
    trials = synthetic_trials(meta, {"base" => [10.0, 10.1, 9.9, 10.05, 9.95], "fast" => [12.0, 12.1, 11.9, 12.05, 11.95]})
    key = trials.find { |t| t.runtime == "fast" }.cell_key
    apart = Rubyrig::Results::Trial.new(batch_id: "c1-gvl", cell_key: key, runtime: "fast", workload: "builtin:nbody", params: {"n" => 1},
      batch: 0, round: 6, diagnostic: "gvl", status: "ok", metrics: {"iterations_per_s" => 1.0, "gvl_wait_fraction" => 0.25}, warnings: [])
    report = Rubyrig::Analysis.new.analyze(meta: meta, trials: trials + [apart])
    summary = report.summary(key, "gvl_wait_fraction")
    assert_equal [1, 0.25], [summary.n, summary.median]
    assert_equal 5, report.summary(key, "iterations_per_s").n, "the diagnostic batch's speed is not counted"
    assert_nil report.comparison("fast", "builtin:nbody", {"n" => 1}, "gvl_wait_fraction")
    assert_equal 1, report.warnings.grep(/GVL wait on fast comes from one diagnostic batch per cell, apart from the measured batches/).size
  end
end
