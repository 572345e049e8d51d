require "test_helper"
require "support/chromium"
require "support/report_page"
require "support/history_fixtures"

# The history's HTML page opened in headless Chromium: a timeline per series with a mark per point
# (each with its numbers as a tooltip), the change point, the candidate and the cut drawn, no text cut
# by its picture's box or overflowing the page, no axis below zero; also by version with one point.
class HistoryPageTest < Minitest::Test
  include SlowTest
  include HistoryFixtures

  def setup
    super
    @chromium = Chromium.new
  end

  def teardown
    @chromium&.close
    super
  end

  def test_the_timelines_are_drawn_whole_and_inside_their_pictures
    step = series([1.0] * 6 + [1.12] * 6, hosts: %w[a a a b b b b b b b b b])
    candidate = FakeChange.new(index: 9, runs_before: 6...9, runs_after: 9...12, ratio: 1.01, low: 0.98, high: 1.04,
      verdict: "inconclusive", p_value: 0.3, p_adjusted: 0.6, reason: "the interval holds 1")
    time = Rubyrig::History::Report.build([step], finder: FakeFinder.new([slower_at(6, 12).tap { |c| c.runs_before = 3...6 }, candidate]))
    versions = Rubyrig::History::Report.build([series([2.0], runtime: "system", versions: %w[3.1.2]), series([1.5], runtime: "3.3.8")], by: "version")
    [[time, 12], [versions, 2]].each do |report, points|
      path = write(tmpdir, "history.html", Rubyrig::History::Html.new(report).render)
      errors, page = ReportPage.inspect(@chromium, path)
      assert_empty errors
      figure = page["figures"].first
      assert_equal ["timeline", 1, points], [figure["kind"], figure["svgs"], figure["points"]]
      assert_empty page["cut"], "text cut by its picture's box"
      assert_empty page["negative"]
      assert_empty page["overflow"]
      assert_empty page["untitled"]
    end
    html = Rubyrig::History::Html.new(time).render
    assert_equal [1, 1, 1], [html.scan('class="change-point"').size, html.scan('class="candidate"').size, html.scan('<g class="cut"').size]
  end
end
