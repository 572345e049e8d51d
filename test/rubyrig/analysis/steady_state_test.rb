require "test_helper"
require "support_report"

# The steady-state check on per-iteration times: a trend decided across batches, a flat series left
# alone, where a series settles, and what the report shows (warning, JSON, section, picture).
class SteadyStateTest < Minitest::Test
  include SupportReport

  SS = Rubyrig::Analysis::SteadyState
  FakeCell = Struct.new(:key, :runtime, :workload, :params, keyword_init: true)
  FakeTrial = Struct.new(:samples, keyword_init: true)

  # n iterations around 10 ms with 1% noise of a seeded generator, times the shape at the window's fraction.
  def batch(rng, n, shape = ->(_u) { 1.0 })
    Array.new(n) { |i| 0.01 * (1 + 0.01 * (rng.rand - 0.5) * 2) * shape.call(i.to_f / (n - 1)) }
  end

  def check(batches, warmup: [], &shape)
    rng = Random.new(7)
    cell = FakeCell.new(key: "r | w", runtime: "r", workload: "w", params: {})
    trials = batches.map { |n| FakeTrial.new(samples: {"warmup_s" => warmup, "iterations_s" => batch(rng, n, shape || ->(_u) { 1.0 })}) }
    SS.of([cell], {cell.key => trials}).first
  end

  def test_a_flat_series_is_checked_and_not_trending
    cell = check([20] * 5)
    assert cell.checked
    refute cell.trending
    assert_in_delta 0.0, cell.slope.change, 0.01
    assert_operator cell.slope.ci[0], :<, 0
    assert_operator cell.slope.ci[1], :>, 0
  end

  def test_iterations_getting_faster_over_the_window_are_a_decided_trend
    cell = check([20] * 5) { |u| 1.2 - 0.2 * u }
    assert cell.trending
    assert cell.slope.decided
    assert_in_delta(-0.18, cell.slope.change, 0.03)
    assert_equal "faster", SS.direction(cell)
  end

  # A warmup that ends inside the window: the first two of 20 iterations 50% slower, the rest flat.
  def test_a_step_near_the_start_is_seen_by_the_early_shift
    cell = check([20] * 5) { |u| (u < 0.1) ? 1.5 : 1.0 }
    assert cell.trending
    assert cell.early_shift.decided
    assert_in_delta 2 * Math.log(1 / 1.5) / 5, Math.log(1 + cell.early_shift.change), 0.01
  end

  def test_too_few_iterations_or_batches_are_not_checked_and_say_why
    short = check([3, 20, 20])
    refute short.checked
    assert_match(/1 of 3 batches have fewer than 4 measured iterations/, short.reason)
    few = check([20, 20]) { |u| 2 - u }
    refute few.checked
    refute few.trending, "two batches decide nothing"
    assert_match(/2 batches; a trend is tested from 3/, few.reason)
  end

  # Log times with lag-one correlation 0.5 (sd 3%), a 2% chance per iteration of a +30% outlier, a
  # batch level that varies by 5%, and the drift of `shape` (bench/steady-state-simulation at one design point).
  def correlated(rng, n, shape)
    level = 0.05 * gauss(rng)
    e = 0.0
    Array.new(n) do |i|
      e = 0.5 * e + Math.sqrt(0.75) * 0.03 * gauss(rng)
      Math.exp(level + e + ((rng.rand < 0.02) ? Math.log(1.3) : 0) + shape.call(i / (n - 1.0))) * 0.01
    end
  end

  def gauss(rng) = Math.sqrt(-2 * Math.log(1 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand)

  # Reports (2 cells, 5 batches of 20 iterations) with any trending cell, over 400 seeded draws.
  def warned_share(seed, shape)
    rng = Random.new(seed)
    cells = [FakeCell.new(key: "a", runtime: "a", workload: "w", params: {}), FakeCell.new(key: "b", runtime: "b", workload: "w", params: {})]
    hits = Array.new(400).count do
      measured = cells.to_h { |c| [c.key, Array.new(5) { FakeTrial.new(samples: {"iterations_s" => correlated(rng, 20, shape)}) }] }
      SS.of(cells, measured).any?(&:trending)
    end
    hits / 400.0
  end

  def test_flat_correlated_series_with_outliers_rarely_warn_and_a_warming_jit_is_seen
    assert_operator warned_share(34, ->(_u) { 0.0 }), :<=, 0.05
    assert_operator warned_share(35, ->(u) { Math.log(1.3) * Math.exp(-5 * u) }), :>=, 0.95
  end

  def test_where_a_series_settles
    warm = [0.05, 0.04, 0.03, 0.02, 0.015]
    steady = [0.01, 0.0101, 0.0099, 0.01, 0.0102, 0.0098, 0.01, 0.0101, 0.0099, 0.01]
    assert_equal [5, warm.sum], SS.settle(warm + steady)
    assert_equal [0, 0.0], SS.settle(steady), "steady from the first iteration"
    assert_nil SS.settle(Array.new(12) { |i| 0.05 - 0.003 * i }), "still falling at the end: not settled"
    assert_nil SS.settle(steady.first(5)), "too short to say"
  end

  def test_the_warmup_curve_bins_double_in_width
    assert_equal [[1, 1], [2, 2], [3, 3], [4, 4], [5, 6], [7, 8], [9, 12], [13, 16]], SS::Curves.bins(13)
  end

  # A run whose YJIT batches still get faster in their measured windows while the baseline's are flat.
  def trending_report
    rng = Random.new(11)
    meta = synthetic_meta
    trials = synthetic_trials(meta, {"base" => [10.0] * 5, "fast" => [12.0] * 5}).map do |t|
      shape = (t.runtime == "fast") ? ->(u) { 1.3 - 0.3 * u } : ->(_u) { 1.0 }
      samples = {"warmup_s" => [0.03, 0.02], "iterations_s" => batch(rng, 12, shape)}
      Rubyrig::Results::Trial.new(**t.to_h, samples: samples)
    end
    Rubyrig::Analysis.new.analyze(meta: meta, trials: trials)
  end

  def test_the_report_warns_about_the_trending_cell_only_and_keeps_its_trend_in_json
    report = trending_report
    lines = report.warnings.grep(/still get/)
    assert_equal 1, lines.size, report.warnings.inspect
    assert_match(/\Afast \| builtin:nbody \| n=1: its measured iterations still get faster \(-\d+\.\d% \[-\d+\.\d%, -\d+\.\d%\] from the first iteration to the last, over 5 batches\)/, lines.first)
    json = JSON.parse(Rubyrig::Reporters::Json.new(report).render)
    entries = json.fetch("steady_state").to_h { |e| [e["runtime"], e] }
    assert entries["fast"]["trending"]
    refute entries["base"]["trending"]
    assert_operator entries["fast"]["slope"]["change"], :<, -0.15
    assert entries["fast"]["slope"]["decided"]
    assert_equal 5, entries["fast"]["settle"]["batches"]
  end

  def test_the_section_shows_the_trend_and_the_time_to_steady_state_with_its_picture
    report = trending_report
    section = report.sections.find { |s| s.name == "steady_state" }
    trend, settle = section.tables
    assert_equal ["trending: getting faster", "no trend decided"], trend.rows.sort_by { |r| r[:runtime] }.reverse.map { |r| r[:state] }
    kind, plot = settle.figure
    assert_equal :warmup, kind
    assert_equal %w[base fast], plot.series.keys.sort
    assert_equal %w[1 2 3 4 5–6 7–8 9–12 13–16], plot.values
    text = Rubyrig::Reporters::Terminal.new(report, color: false).render
    assert_includes text, "Time to steady state"
    html = Rubyrig::Reporters::Html.new(report).render
    assert_includes html, "iteration time / steady level"
    assert_equal 1, html.scan('data-figure="warmup"').size, "a figure of its own, not a sweep's"
    assert_equal 2, html[/data-figure="warmup".*?<\/figure>/m].scan('class="series"').size, "a line per runtime"
  end
end
