require "test_helper"
require "support/history_fixtures"

# The history's formats say the same thing: the change point's sentence, the cuts, and the points.
class HistoryFormatsTest < Minitest::Test
  include HistoryFixtures

  def report(changes: [slower_at(6, 12)], **options)
    s = series([1.0] * 6 + [1.12] * 6, **options)
    Rubyrig::History::Report.build([s], finder: FakeFinder.new(changes))
  end

  def test_text_is_plain_without_colour_and_names_the_change_and_its_sides
    text = Rubyrig::History::Text.new(report).render
    refute_includes text, "\e["
    assert_includes text, "nbody · steps=200 · wall_s on 3.3.8+yjit (lower is better; 12 runs by time)"
    assert_includes text, "▼ 12.0% [8.0%, 16.0%] slower from run 7 (2026-11-20T16:00, commit 0a1b2c9) on; no change before"
    assert_includes text, "before: runs 1–6 (commits 0a1b2c3–0a1b2c8), level 1000.0 ms; after: runs 7–12"
    refute_match(/^    1  /, text, "the runs' table only with runs: true")
    assert_match(/^    1   2026-11-20T10:00  box/, Rubyrig::History::Text.new(report, runs: true).render)
    assert_includes Rubyrig::History::Text.new(report, color: true).render, "\e[31m▼ 12.0%"
  end

  def test_data_cannot_move_the_cursor_or_become_markup
    r = report(workload: "x\e[2J*y*|z")
    refute_includes Rubyrig::History::Text.new(r).render, "\e[2J"
    markdown = Rubyrig::History::Markdown.new(r).render
    assert_includes markdown, "### x\\\\e\\[2J\\*y\\*\\|z · steps=200"
  end

  def test_markdown_has_the_bug_report_line_and_a_table_of_the_runs
    markdown = Rubyrig::History::Markdown.new(report).render
    assert_includes markdown, "- **nbody · steps=200 · wall_s on 3.3.8+yjit: 12.0% \\[8.0%, 16.0%\\] slower** from run 7 (2026-11-20T16:00, commit 0a1b2c9) on; no change before"
    assert_equal 12, markdown.lines.grep(/^\| \d+ \| 2026-11-20T/).size
  end

  def test_json_has_the_points_the_change_point_and_the_gate
    data = JSON.parse(Rubyrig::History::Json.new(report).render)
    series = data.fetch("series").first
    assert_equal 12, series["points"].size
    assert_equal 5, series["points"].first["values"].size
    change = series["change_points"].first
    assert_equal [6, [0, 5], [6, 11], "slower", true], change.values_at("index", "before", "after", "verdict", "regression")
    assert series["new_regression"]
  end

  def test_the_gate_names_a_new_regression_and_passes_an_improvement
    lines = Rubyrig::History::Gate.failures(report, ["regressed"])
    assert_equal ["new regression: nbody · steps=200 · wall_s on 3.3.8+yjit: 12.0% [8.0%, 16.0%] slower from run 7 (2026-11-20T16:00, commit 0a1b2c9) on; no change before"], lines
    assert_empty Rubyrig::History::Gate.failures(report, [])
    faster = report(changes: [slower_at(6, 12, ratio: 0.9, low: 0.85, high: 0.95, verdict: "faster")])
    assert_empty Rubyrig::History::Gate.failures(faster, ["regressed"])
    assert_raises(Rubyrig::UsageError) { Rubyrig::History::Gate.parse("slower") }
  end

  def test_the_timeline_draws_every_point_the_change_point_between_runs_6_and_7_and_the_levels
    svg = Rubyrig::History::Timeline.render(report.entries.first)
    assert_equal 12, svg.scan('class="point"').size
    assert_equal 2, svg.scan('class="level"').size
    xs = svg.scan(/<circle class="point" cx="([\d.]+)"/).flatten.map(&:to_f)
    line = svg[/class="change-point" data-index="6" x1="([\d.]+)"/, 1].to_f
    assert_operator xs[5], :<, line
    assert_operator line, :<, xs[6]
    cut = Rubyrig::History::Timeline.render(report(hosts: %w[a a a a a a b b b b b b], changes: []).entries.first)
    assert_includes cut, %(<g class="cut" data-index="6">)
  end

  def test_the_real_change_points_find_a_seeded_12_percent_step_and_nothing_in_a_flat_series
    rng = Random.new(11)
    noisy = ->(levels) { series(levels).tap { |s| s.points.each { |p| p.values = p.values.map { |v| v * (1 + 0.02 * (rng.rand - 0.5)) } } } }
    step = Rubyrig::History::Report.build([noisy.call([1.0] * 6 + [1.12] * 6)]).entries.first
    assert_equal [6], step.changes.map(&:index)
    assert_equal "slower", step.changes.first.verdict
    assert step.new_regression
    flat = Rubyrig::History::Report.build([noisy.call([1.0] * 12)]).entries.first
    assert_empty flat.changes
  end
end
