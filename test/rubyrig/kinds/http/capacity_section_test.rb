# The capacity of two runtimes from synthetic batches (pure): the latency-against-offered-rate picture's
# numbers, the Capacity section's table and its sentence ("b sustains 2.000x [...] the rate of a at p99 <
# 400 ms: faster"), in every format.
require "test_helper"

class CapacitySectionTest < Minitest::Test
  CAPACITY = {"a" => [48.0, 50.0, 49.0, 51.0, 47.5], "b" => [97.0, 99.0, 100.0, 98.0, 96.0]}.freeze

  def meta(cells, order)
    {"name" => "capacity", "baseline" => "a", "plan" => {"seed" => 1, "cells" => cells, "order" => order},
     "workloads" => {"app" => {"kind" => "http", "primary_metrics" => %w[capacity_per_s requests_per_s]}},
     "host" => {"cores" => 2}, "runtimes" => {"a" => {"spec" => "a"}, "b" => {"spec" => "b"}}, "command_line" => %w[rubyrig run]}
  end

  # A search's steps: growing by 2 from capacity / 3, then narrowing on the capacity; latency climbs past it.
  def sample(capacity)
    rates = [capacity / 3, capacity * 2 / 3, capacity * 4 / 3, capacity, capacity * 1.04]
    steps = rates.map do |rate|
      ok = rate <= capacity
      {"offered_rate_per_s" => rate, "achieved_rate_per_s" => rate, "answered_per_s" => ok ? rate : capacity, "error_rate" => 0.0,
       "behind" => false, "sustained" => ok, "latency_p99_s" => ok ? 0.02 + 0.3 * rate / capacity : 1.5}
    end
    {"objective" => "p99 < 400 ms", "percentile" => "p99", "bound_s" => 0.4, "limit" => "objective", "capacity_per_s" => capacity, "steps" => steps}
  end

  def report
    cells = %w[a b].each_with_index.map { |r, i| {"index" => i, "runtime" => r, "workload" => "app", "params" => {}, "effective_params" => {"processes" => 1, "threads" => 1}} }
    order = (1..5).flat_map { |b| cells.map { |c| {"id" => "c#{c["index"]}-b#{b}", "cell" => c["index"], "number" => b, "round" => b} } }
    trials = order.map do |b|
      cell = cells[b["cell"]]
      capacity = CAPACITY.fetch(cell["runtime"])[b["number"] - 1]
      Rubyrig::Results::Trial.new(batch_id: b["id"], cell_key: Rubyrig::Experiment::Cell.new(runtime: cell["runtime"], workload: "app", params: {}).key,
        runtime: cell["runtime"], workload: "app", params: {}, batch: b["number"], status: "ok", artifacts: [], warnings: [],
        metrics: {"capacity_per_s" => capacity, "capacity_steps" => 5, "latency_p99_s" => 0.3, "requests_per_s" => capacity}, samples: {"capacity" => sample(capacity)})
    end
    Rubyrig::Analysis.new.analyze(meta: meta(cells, order), trials: trials)
  end

  def test_the_picture_has_every_step_of_every_batch_and_the_bound
    plot = report.figures.capacity.first
    assert_equal "p99 < 400 ms", plot.objective
    assert_in_delta 0.4, plot.bound_s
    assert_equal %w[a b], plot.series.map(&:runtime)
    a = plot.series.first
    assert_equal 5, a.batches.size
    assert_equal 49.0, a.capacity_per_s
    assert_equal [16.0, 32.0, 48.0, 49.92, 64.0], a.batches.first["points"].map { |p| p[0].round(2) }
    assert_equal [true, true, true, false, false], a.batches.first["points"].map(&:last)
    assert plot.x_axis.log, "16/s to 133/s"
    assert_operator plot.y_axis.max, :>=, 1.5
  end

  def test_capacity_is_the_primary_metric_and_compared_with_its_interval
    r = report
    assert_equal "capacity_per_s", r.primary_metric("app")
    c = r.comparison("b", "app", {}, "capacity_per_s")
    assert_in_delta 2.0, c.ratio, 0.05
    assert_operator c.ci[0], :<, c.ratio
    assert_equal "higher", c.verdict
    assert_empty r.why.to_a.select { |e| e.comparison.metric == "capacity_per_s" }, "a batch's CPU spans its whole search: no cost per request"
    sentence = Rubyrig::Kinds::Http::CapacitySection.sentence(c, "p99 < 400 ms")
    assert_match(/\Ab sustains 1\.9\d\dx \[1\.\d{3}, 2\.\d{3}\] the rate of a at p99 < 400 ms: higher\z/, sentence)
  end

  def test_every_format_says_the_sentence
    r = report
    sentence = r.sections.find { |s| s.name == "capacity" }.tables.first.rows.last[:detail]
    refute_nil sentence
    outputs = {
      terminal: Rubyrig::Reporters::Terminal.new(r).render, markdown: Rubyrig::Reporters::Markdown.new(r).render,
      html: Rubyrig::Reporters::Html.new(r).render, csv: Rubyrig::Reporters::Csv.new(r).render, json: Rubyrig::Reporters::Json.new(r).render
    }
    outputs.each { |format, text| assert_includes text.gsub("&lt;", "<").delete("\\"), sentence, format }
    json = JSON.parse(outputs[:json])
    assert_equal sentence, json.dig("capacity", 0, "runtimes", 1, "sentence")
    assert_includes outputs[:html], %(data-figure="capacity")
    assert_equal 50, outputs[:html].scan('class="step"').size, "a marker per step of every batch"
  end
end
