require "test_helper"
require "support_report"

class HtmlReporterTest < Minitest::Test
  include SupportReport

  def test_a_self_contained_page_with_charts_and_tables
    html = Rubyrig::Reporters::Html.new(synthetic_report).render
    assert html.start_with?("<!DOCTYPE html>")
    refute_match(/<script|<link|src="http/, html, "no scripts or outside files")
    assert_operator html.scan("<svg").size, :>=, 2, "the verdict forest plot and a strip chart"
    assert_match(%r{<td class="faster">faster</td>}, html)
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
end
