require "test_helper"
require "support_report"

# Items measured apart inside a batch (benchmark-ips reports) are a dimension of the cell, like a
# parameter: each item of each runtime is its own cell, compared with the baseline's same item.
class ItemsTest < Minitest::Test
  include SupportReport

  # Two runtimes, five batches; item "a" runs 1.5 times as fast on "fast", item "b" the same; "fast"
  # also measured an item "c" that the baseline never did.
  def report(failed: {})
    meta = synthetic_meta
    meta["workloads"]["builtin:nbody"]["primary_metrics"] = %w[iterations_per_s run_s]
    trials = synthetic_trials(meta, ->(_r, _p, n) { 10.0 + n * 0.01 }, status: failed).map do |t|
      speed = (t.runtime == "fast") ? 1.5 : 1.0
      jitter = 1 + 0.002 * t.batch
      items = [
        {"item" => "a", "metrics" => {"iterations_per_s" => 1000.0 * speed * jitter}, "samples" => {"iterations" => 10}},
        {"item" => "b", "metrics" => {"iterations_per_s" => 50.0 * jitter}}
      ]
      items << {"item" => "c", "metrics" => {"iterations_per_s" => 7.0 * jitter}} if t.runtime == "fast"
      metrics = t.metrics.except("iterations_per_s").merge("run_s" => 3.0 * jitter)
      Rubyrig::Results::Trial.new(**t.to_h, metrics: metrics, items: t.ok? ? items : nil)
    end
    Rubyrig::Analysis.new.analyze(meta: meta, trials: trials)
  end

  def test_each_item_is_a_cell_after_its_parent
    r = report
    assert_equal ["", "item=a", "item=b", "item=c"], r.groups.map { |_, params, _| Rubyrig::Experiment::Cell.new(params: params).params_label.sub("n=1", "").strip }
    assert_equal 8, r.cells.size
    assert_equal 10, r.trials.size, "the recorded trials stay as they are"
    assert_equal 25, r.item_trials.size
  end

  def test_each_item_is_compared_across_runtimes_with_its_own_verdict
    r = report
    a = r.comparison("fast", "builtin:nbody", {"n" => 1, "item" => "a"}, "iterations_per_s")
    assert_in_delta 1.5, a.ratio, 0.001
    assert_equal "faster", a.verdict
    b = r.comparison("fast", "builtin:nbody", {"n" => 1, "item" => "b"}, "iterations_per_s")
    assert_equal "equivalent", b.verdict
    assert_nil r.comparison("fast", "builtin:nbody", {"n" => 1, "item" => "c"}, "iterations_per_s")
    assert_includes r.warnings, "base | builtin:nbody | n=1,item=c: only 0 ok batches; statistics need 2 or more (--batches)"
    assert_equal 5, r.summary("base | builtin:nbody | n=1,item=a", "iterations_per_s").n
    assert_nil r.summary("base | builtin:nbody | n=1", "iterations_per_s"), "the whole process has no iterations of its own"
  end

  def test_the_whole_process_leads_with_its_run_time_and_items_with_their_speed
    r = report
    parent, *items = r.groups.map { |workload, _, cells| r.table_metric(workload, cells) }
    assert_equal "run_s", parent
    assert_equal ["iterations_per_s"] * 3, items
    assert_equal "iterations_per_s", r.primary_metric("builtin:nbody")
  end

  def test_a_failed_batch_has_no_items_and_the_item_cells_count_the_rest
    r = report(failed: {"c0-b2" => true})
    assert_equal 4, r.summary("base | builtin:nbody | n=1,item=a", "iterations_per_s").n
    assert_equal 1, r.failed_trials.size
  end

  def test_every_format_shows_the_items
    r = report
    assert_match(/builtin:nbody · n=1 item=a\n  iterations\/s .*\n    base .*\n    fast .*1\.500x .* faster/, Rubyrig::Reporters::Terminal.new(r).render)
    csv = CSV.parse(Rubyrig::Reporters::Csv.new(r).render, headers: true)
    assert(csv.any? { |row| row["params"] == "n=1 item=a" && row["metric"] == "iterations_per_s" && row["verdict"] == "faster" })
    json = JSON.parse(Rubyrig::Reporters::Json.new(r).render)
    assert(json["comparisons"].any? { |c| c["params"] == {"n" => 1, "item" => "a"} && c["verdict"] == "faster" })
    assert_match(/\| n=1 item=a \| `fast` \| 5 \| .* \| faster \|/, Rubyrig::Reporters::Markdown.new(r).render)
    assert_includes Rubyrig::Reporters::Html.new(r).render, "builtin:nbody · n=1 item=a"
  end
end
