require "test_helper"
require "support_report"

class HtmlReporterTest < Minitest::Test
  include SupportReport

  def test_a_self_contained_page_with_charts_and_tables
    html = Rubyrig::Reporters::Html.new(synthetic_report).render
    assert html.start_with?("<!DOCTYPE html>")
    refute_match(/<script|<link|src="http/, html, "no scripts or outside files")
    %w[verdicts distribution memory-speed].each { |kind| assert_includes html, %(data-figure="#{kind}"), kind }
    assert_match(%r{<span class="verdict v-faster" style="color:#1b7837">▲ faster</span>}, html)
    assert_equal 10, html.scan('class="batch"').size, "every batch a point"
    assert_includes html, "<title>fast batch c1-b1: 12.00/s</title>", "each point's number as a tooltip"
    assert_match(/1\.200x \[1\.\d+, 1\.\d+\]/, html)
    assert_match(/Reproduce: <code>rubyrig compare -r base -r fast -- builtin:nbody<\/code>/, html)
  end

  def test_text_from_the_run_is_escaped
    meta = synthetic_meta
    meta["name"] = "<b>x</b>"
    report = Rubyrig::Analysis.new.analyze(meta: meta, trials: synthetic_trials(meta, {"base" => [1.0] * 5, "fast" => [1.0] * 5}))
    html = Rubyrig::Reporters::Html.new(report).render
    assert_includes html, "rubyrig: &lt;b&gt;x&lt;/b&gt;"
    refute_includes html, "<b>x</b>"
  end

  def test_every_verdict_word_has_its_own_shape_and_colour
    styles = Rubyrig::Analysis::Verdict::ALL.map { |w| Rubyrig::Reporters::Svg.verdict_style(w) }
    core = %w[faster slower equivalent inconclusive not\ compared].map { |w| Rubyrig::Reporters::Svg.verdict_style(w) }
    assert_equal core.size, core.map { |s| [s.shape, s.filled] }.uniq.size, "told apart in grey print"
    assert_equal core.size, core.map(&:color).uniq.size
    assert(styles.all?(&:glyph))
  end

  def test_intervals_are_drawn_from_six_batches
    values = {"base" => [10.0, 10.1, 9.9, 10.05, 9.95, 10.2], "fast" => [12.0, 12.1, 11.9, 12.05, 11.95, 12.2]}
    html = Rubyrig::Reporters::Html.new(synthetic_report(batches: 6, values: values)).render
    assert_equal 2, html.scan('class="median-ci"').size
    assert_includes html, "[9.900/s, 10.20/s]"
    five = Rubyrig::Reporters::Html.new(synthetic_report).render
    assert_includes five, "needs 6 batches"
  end
end
