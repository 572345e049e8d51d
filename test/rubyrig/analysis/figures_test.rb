require "test_helper"
require "support_report"

# What each picture shows, from synthetic trials (pure logic): the rows, points, curves and axes.
class FiguresTest < Minitest::Test
  include SupportReport

  def test_verdict_plots_per_metric_with_the_default_margin
    report = synthetic_report
    plots = report.figures.verdicts
    assert_equal %w[iterations_per_s peak_rss_bytes], plots.map(&:metric)
    plot = plots.first
    assert_equal "base", plot.baseline
    assert_in_delta Rubyrig::Experiment::Decision::DEFAULT_EQUIVALENCE, plot.margin
    assert_equal ["fast"], plot.rows.map(&:runtime)
    assert plot.axis.log
    assert_operator plot.axis.min, :<=, plot.rows.first.ci.first
    assert_operator plot.axis.max, :>=, 1.02
  end

  def test_a_comparison_that_carries_its_margin_is_drawn_with_it
    report = synthetic_report
    comparisons = report.comparisons.map { |c| Rubyrig::Analysis::Comparison.new(**c.to_h, margin: 0.05) }
    plots = Rubyrig::Analysis::Figures.of(Rubyrig::Analysis::Report.new(**report.to_h, comparisons: comparisons)).verdicts
    assert_in_delta 0.05, plots.first.margin
    assert_operator plots.first.axis.min, :<=, 0.95
  end

  def test_distributions_keep_every_batch_and_its_id
    report = synthetic_report(batches: 6, values: {"base" => [10.0, 10.1, 9.9, 10.05, 9.95, 10.2], "fast" => [12.0, 12.1, 11.9, 12.05, 11.95, 12.2]})
    plot = report.figures.distributions.first
    base = plot.cells.find { |c| c.runtime == "base" }
    assert_equal 6, base.n
    assert_equal [10.0, 10.1, 9.9, 10.05, 9.95, 10.2], base.values
    assert_equal %w[c0-b1 c0-b2 c0-b3 c0-b4 c0-b5 c0-b6], base.batch_ids
    assert_equal [9.9, 10.2], base.median_ci, "six batches: the interval is their range"
    refute plot.axis.log
    assert_operator plot.axis.min, :>=, 0
  end

  def test_memory_against_speed_has_a_point_per_cell
    report = synthetic_report
    plot = report.figures.memory_speed.first
    assert_equal %w[base fast], plot.points.map(&:runtime)
    assert_equal [1, 1], plot.points.map(&:group), "one parameter combination"
    assert_empty plot.lines, "no +yjit-mem runtimes, no line"
    assert_operator plot.memory_axis.min, :>=, 0
  end

  # A run with an HTTP app in two connection modes, a jobs drain and a traced batch.
  def servers_report
    cells = []
    %w[keepalive close].each do |mode|
      %w[a b].each { |r| cells << {"runtime" => r, "workload" => "app", "params" => {"connection" => mode}, "effective_params" => {"connection" => mode, "processes" => 1, "threads" => 1}} }
    end
    %w[a b].each { |r| cells << {"runtime" => r, "workload" => "drain", "params" => {}, "effective_params" => {"jobs" => 10, "processes" => 1, "concurrency" => 2}} }
    cells.each_with_index { |c, i| c["index"] = i }
    order = (1..2).flat_map { |b| cells.map { |c| {"id" => "c#{c["index"]}-b#{b}", "cell" => c["index"], "number" => b, "round" => b} } }
    order << {"id" => "c0-trace", "cell" => 0, "number" => 0, "round" => 3, "diagnostic" => "trace"}
    meta = {"name" => "servers", "baseline" => "a", "plan" => {"seed" => 1, "cells" => cells, "order" => order},
            "workloads" => {"app" => {"kind" => "http", "primary_metric" => "requests_per_s"}, "drain" => {"kind" => "jobs", "primary_metric" => "jobs_per_s"}},
            "host" => {"cores" => 2}, "runtimes" => {"a" => {"spec" => "a"}, "b" => {"spec" => "b"}}, "command_line" => %w[rubyrig run]}
    trials = order.map do |b|
      cell = cells[b["cell"]]
      key = Rubyrig::Experiment::Cell.new(runtime: cell["runtime"], workload: cell["workload"], params: cell["params"]).key
      metrics, samples = if cell["workload"] == "app"
        [{"requests_per_s" => 1000.0 + b["number"], "latency_p50_s" => 0.001, "latency_p90_s" => 0.004, "latency_p99_s" => 0.02,
          "latency_p999_s" => 0.05, "error_count" => b["number"] - 1, "request_count" => 5000, "peak_rss_bytes" => 3e7}, {}]
      else
        [{"jobs_per_s" => 100.0 + b["number"], "peak_rss_bytes" => 4e7},
          {"jobs_timeline" => {"enqueue_start_s" => -3.0, "enqueue_end_s" => -2.9, "boot_start_s" => -2.8, "ready_s" => -0.1,
                               "first_start_s" => 0.01, "last_finish_s" => 0.1, "bucket_s" => 0.025, "completed" => [0, 5, 4, 1]}}]
      end
      if b["diagnostic"]
        samples = {"gvl_threads" => {"processes" => 1, "omitted_threads" => 0, "threads" => [
          {"pid" => 9, "tid" => 0, "name" => "Main Thread", "running_s" => 0.5, "gc_s" => 0.1, "wants_gvl_s" => 0.3, "waiting_s" => 0.1}
        ]}}
      end
      Rubyrig::Results::Trial.new(batch_id: b["id"], cell_key: key, runtime: cell["runtime"], workload: cell["workload"], params: cell["params"],
        batch: b["number"], diagnostic: b["diagnostic"], status: "ok", metrics: metrics, samples: samples,
        artifacts: b["diagnostic"] ? ["trace/gvl-9.json"] : [], warnings: [])
    end
    Rubyrig::Analysis.new.analyze(meta: meta, trials: trials)
  end

  def test_latency_curves_per_runtime_and_connection_mode
    plot = servers_report.figures.latency.first
    assert_equal [50, 90, 99, 99.9], plot.percentiles
    plot.positions.zip([0.301, 1, 2, 3]).each { |got, want| assert_in_delta want, got, 1e-3 }
    assert_equal [%w[a keepalive], %w[b keepalive], %w[a close], %w[b close]], plot.series.map { |s| [s.runtime, s.mode] }
    assert_equal [0.001, 0.004, 0.02, 0.05], plot.series.first.medians
    assert_equal 2, plot.series.first.batches.size
    assert plot.axis.log, "50x from p50 to p99.9"
  end

  def test_errors_per_batch_and_a_grid_only_with_several_combinations
    figures = servers_report.figures
    assert_equal [[0, 1]] * 4, figures.http_errors.first.cells.map { |c| c.batches.map { |b| b["error_count"] } }
    assert_in_delta 0.0, figures.http_errors.first.axis.min
    assert_empty figures.grids, "one process and one thread make no grid"
  end

  def test_jobs_timelines_count_the_jobs_finished_since_the_gate
    plot = servers_report.figures.jobs.first
    runtime = plot.runtimes.first
    assert_equal [0, 0, 5, 9, 10], runtime.batches.first["completed"]
    assert_equal [0.0, 0.025, 0.05, 0.075, 0.1], runtime.batches.first["times"].map { |t| t.round(3) }
    assert_in_delta 0.05, runtime.finished_by[0.5]
    assert_in_delta 0.1, runtime.finished_by[1.0]
    assert_equal [0.0, 0.1], runtime.phases["enqueue"].map { |t| t.round(3) }
    assert_equal [3.01, 3.1], runtime.phases["drain"].map { |t| t.round(3) }
    assert_equal({"enqueue" => 0.1, "boot" => 2.7, "gate" => 0.1, "drain" => 0.09}, runtime.durations.transform_values { |t| t.round(3) })
    assert_equal 10, plot.jobs
  end

  def test_gvl_threads_of_the_traced_batch
    plot = servers_report.figures.gvl.first
    assert_equal "c0-trace", plot.batch_id
    thread = plot.threads.first
    assert_in_delta 1.0, thread["total_s"]
    assert_in_delta 0.3, thread["wants_gvl_share"]
    assert_in_delta 0.0, plot.axis.min
  end
end
