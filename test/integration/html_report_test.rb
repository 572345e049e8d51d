require "test_helper"
require "support/mixed_run"
require "support/chromium"
require "support/report_page"
require "support_report"

# The HTML report of a real mixed run, opened in headless Chromium: no console error, every picture
# present with its data (one mark per batch, curve, thread or frame, counted from the trials), no
# axis below zero, no text cut by its box or overflowing the page at 1280 px, a tooltip on every mark.
class HtmlReportTest < Minitest::Test
  include SlowTest
  include MixedRun
  include SupportReport

  def setup
    super
    @chromium = Chromium.new
  end

  def teardown
    @chromium&.close
    super
  end

  def render_in_browser(report)
    path = write(tmpdir, "report.html", Rubyrig::Reporters::Html.new(report).render)
    ReportPage.inspect(@chromium, path)
  end

  def assert_clean(errors, page)
    assert_empty errors, "console errors"
    assert_empty page["cut"], "text cut by its picture's box"
    assert_empty page["negative"], "axes below zero"
    assert_empty page["overflow"], "text overflowing its cell or the page"
    assert_empty page["untitled"], "marks without their numbers as a tooltip"
    assert_operator page["page_width"], :<=, Chromium::WIDTH
  end

  def test_every_picture_of_a_mixed_run
    store = Rubyrig::Results::Store.open(mixed_run)
    report = Rubyrig::Analysis.new.analyze(meta: store.meta, trials: store.trials)
    errors, page = render_in_browser(report)
    assert_clean(errors, page)
    figures = page["figures"].group_by { |f| f["kind"] }
    measured = store.trials.select { |t| t.ok? && t.measured? }
    kind = ->(name) { measured.select { |t| store.meta.dig("workloads", t.workload, "kind") == name } }

    forests = figures.fetch("verdicts")
    report.comparisons.select(&:ratio).group_by(&:metric).each do |metric, comparisons|
      next unless (forest = forests.find { |f| f["metric"] == metric })
      assert_equal comparisons.size, forest["verdict_marks"], "a marker per comparison of #{metric}"
      assert_equal forest["forest_rows"], forest["band_rects"], "the equivalence band in every row"
      assert_equal comparisons.map(&:verdict).sort, forest["verdicts"].sort
    end
    primaries = report.cells.map { |c| report.primary_metric(c.workload) }.uniq
    primaries.each { |m| assert(forests.any? { |f| f["metric"] == m }, "a forest plot of #{m}") }

    distributions = figures.fetch("distribution")
    assert_equal report.groups.size, distributions.size
    points = measured.count { |t| t.metrics[report.primary_metric(t.workload)].is_a?(Numeric) }
    assert_equal points, distributions.sum { |f| f["batches"] }, "every batch a point"

    sweeps = figures.fetch("sweep")
    assert_equal report.sweeps.size, sweeps.size
    sweeps.zip(report.sweeps).each { |f, table| assert_equal table.runtimes.size, f["series"] }
    # A warmup curve per parameter set whose batches ran 6 iterations or more (none in this run's short batches).
    warmups = report.sections.find { |s| s.name == "steady_state" }.tables.filter_map { |t| t.figure&.last if t.figure&.first == :warmup }
    assert_equal warmups.map { |plot| plot.series.size }, figures.fetch("warmup", []).map { |f| f["series"] }

    grids = figures.fetch("grid")
    http_cells = report.cells.count { |c| store.meta.dig("workloads", c.workload, "kind") == "http" }
    assert_equal http_cells, grids.sum { |f| f["grid_cells"] }, "every processes × threads cell shaded"

    latency = figures.fetch("latency")
    assert_equal kind.call("http").size, latency.sum { |f| f["batch_curves"] }, "a latency curve per batch"
    modes = report.cells.filter_map { |c| [c.runtime, c.params] if c.params.key?("connection") }.size
    assert_equal modes, latency.sum { |f| f["median_curves"] }, "a median curve per runtime and connection mode"
    assert_equal kind.call("http").size, figures.fetch("http-errors").sum { |f| f["error_bars"] }, "errors of every batch"

    jobs = figures.fetch("jobs")
    assert_equal kind.call("jobs").size, jobs.sum { |f| f["jobs_curves"] }, "a completion line per jobs batch"
    assert_equal 4 * report.cells.count { |c| store.meta.dig("workloads", c.workload, "kind") == "jobs" }, jobs.sum { |f| f["phases"] }, "enqueue, boot, gate, drain"

    memory = figures.fetch("memory-speed")
    assert_equal report.cells.map(&:workload).uniq.size, memory.size
    assert_equal report.cells.size, memory.sum { |f| f["points"] }, "a point per cell"
    assert_equal report.cells.size / 2, memory.sum { |f| f["yjit_lines"] }, "the two +yjit-mem settings joined for each parameter set"

    traced = store.trials.select { |t| t.diagnostic == "trace" && t.ok? && t.samples&.key?("gvl_threads") }
    refute_empty traced
    gvl = figures.fetch("gvl")
    assert_equal traced.size, gvl.size, "the GVL of every traced batch"
    assert_equal traced.sum { |t| t.samples["gvl_threads"]["threads"].size }, gvl.sum { |f| f["rows"] }, "a bar per thread"
    assert(gvl.all? { |f| f["gvl_parts"] >= f["rows"] })

    profiles = figures.fetch("profile")
    assert_equal report.profiles.size, profiles.size
    assert_equal report.profiles.sum { |g| g.top.values.sum(&:size) + 2 * g.growth.values.sum(&:size) }, profiles.sum { |f| f["frame_bars"] }
  end

  def test_a_thousand_batches
    meta = synthetic_meta(params: (1..5).map { |n| {"n" => n} }, batches: 100)
    rng = Random.new(5)
    trials = synthetic_trials(meta, ->(runtime, params, _) { ((runtime == "base") ? 10.0 : 10.4) * params["n"] + rng.rand })
    report = Rubyrig::Analysis.new.analyze(meta: meta, trials: trials)
    html = Rubyrig::Reporters::Html.new(report).render
    assert_operator html.bytesize, :<, 1_000_000, "a page that opens fast"
    errors, page = render_in_browser(report)
    assert_clean(errors, page)
    assert_equal 1000, page["figures"].sum { |f| f["batches"] }
    assert_equal 10, page["figures"].sum { |f| f["median_ci"] }, "a hundred batches give every median its interval"
  end

  def test_a_runtime_label_stays_text
    meta = synthetic_meta(runtimes: ["<script>alert(1)</script>", "fast"])
    values = {"<script>alert(1)</script>" => [10.0, 10.1, 9.9, 10.05, 9.95], "fast" => [12.0, 12.1, 11.9, 12.05, 11.95]}
    report = Rubyrig::Analysis.new.analyze(meta: meta, trials: synthetic_trials(meta, values))
    errors, page = render_in_browser(report)
    assert_clean(errors, page)
    assert_equal 0, @chromium.evaluate("document.scripts.length")
    assert_operator @chromium.evaluate("document.body.textContent.split('<script>alert(1)</script>').length - 1"), :>=, 3
  end

  # `rubyrig why`'s answers (run.json's ablations): a forest row per factor switched, in a clean page.
  def test_the_why_section
    meta = synthetic_meta
    difference = {"cell" => "fast | builtin:nbody | n=1", "workload" => "builtin:nbody", "params" => {"n" => 1}, "runtime" => "fast",
                  "reference" => "base", "metric" => "iterations_per_s", "ratio" => 0.25, "ci" => [0.246, 0.255], "verdict" => "slower"}
    rows = [[{"threads" => 1}, 1.002, [0.991, 1.012], "equivalent", "closes the gap"], [{"threads" => 2}, 0.502, [0.485, 0.519], "slower", "narrows it"],
      [{}, 0.252, [0.248, 0.256], "slower", "leaves it"]].map do |point, ratio, ci, verdict, outcome|
      {"switch" => point.empty? ? "pinned to CPU 1" : "threads=1, 2", "point" => point, "ratio" => ratio, "ci" => ci, "confidence" => 0.95,
       "p_adjusted" => 0.01, "verdict" => verdict, "margin" => 0.02, "outcome" => outcome, "dir" => "why/fast-vs-base-nbody-n-1/x", "why" => "w"}
    end
    line = "the difference comes from running 4 threads: at threads=1 fast and base are equivalent (1.002x [0.991, 1.012])"
    meta["ablations"] = {"command_line" => %w[rubyrig why d], "answers" => [{"difference" => difference, "line" => line, "rows" => rows, "skipped" => []}]}
    report = Rubyrig::Analysis.new.analyze(meta: meta, trials: synthetic_trials(meta, {"base" => [10.0, 10.1, 9.9, 10.05, 9.95], "fast" => [2.5, 2.6, 2.4, 2.55, 2.45]}))
    errors, page = render_in_browser(report)
    assert_clean(errors, page)
    assert_equal 4, @chromium.evaluate("document.querySelectorAll('#why_ablations .forest-row').length"), "the run as measured and a row per factor switched"
  end
end
