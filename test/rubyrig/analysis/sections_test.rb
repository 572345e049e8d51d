# A report section that lives only in the tests (test/fixtures/sections) goes through the report and
# every format: registered with one line, computed once with the report, rendered by the terminal,
# Markdown, HTML, JSON and CSV reporters without any of them naming it (test/integration/sections_run_test.rb
# takes it through a real run and `rubyrig report`).
require "test_helper"
require "support_report"
require "csv"
require_relative "../../fixtures/sections/batches"

class SectionsTest < Minitest::Test
  include SupportReport

  def report
    meta = synthetic_meta
    trials = synthetic_trials(meta, {"base" => [10.0, 10.1, 9.9, 10.05, 9.95], "fast" => [12.0, 12.1, 11.9, 12.05, 11.95]})
    Rubyrig::Analysis.new(sections: Rubyrig::Analysis::Sections::DEFAULT.with(FixtureSection)).analyze(meta: meta, trials: trials)
  end

  def test_a_registered_section_is_in_every_format
    r = report
    assert_equal "fixture", r.sections.last.name
    assert_match(/^Fixture batches per runtime\n\s+runtime\s+n\s+median iterations\/s\n\s+base\s+5\s+10\.00\/s\n\s+fast\s+5\s+12\.00\/s$/,
      Rubyrig::Reporters::Terminal.new(r).render)
    assert_match(/\*\*Fixture batches per runtime\*\*\n\n\| runtime \| n \| median iterations\/s \|\n\|---\|--:\|--:\|\n\| `base` \| 5 \| 10\.00\/s \|/,
      Rubyrig::Reporters::Markdown.new(r).render)
    html = Rubyrig::Reporters::Html.new(r).render
    assert_includes html, %(<li><a href="#fixture">Fixture</a></li>)
    assert_match(%r{<section id="fixture"><h2>Fixture</h2><h3>Fixture batches per runtime</h3><table>.*<code>fast</code></td><td class="num">5</td><td class="num">12\.00/s</td>}, html)
    assert_equal [%w[base 5], %w[fast 5]], JSON.parse(Rubyrig::Reporters::Json.new(r).render)["fixture"].map { |row| [row["runtime"], row["n"].to_s] }
    rows = CSV.parse(Rubyrig::Reporters::Csv.new(r).render, headers: true).select { |row| row["section"] == "fixture_batches" }
    assert_equal [["base", "iterations_per_s", "1/s", 10.0], ["fast", "iterations_per_s", "1/s", 12.0]],
      rows.map { |row| [row["runtime"], row["metric"], row["unit"], row["median"].to_f] }
  end

  def test_the_default_registry_stays_as_it_is
    report
    refute_includes Rubyrig::Analysis::Sections::DEFAULT.builders, FixtureSection
    refute(synthetic_report.sections.any? { |s| s.name == "fixture" })
  end

  def test_a_section_with_nothing_to_show_is_in_json_only
    r = synthetic_report
    http = r.sections.find { |s| s.name == "http" }
    assert http.empty?
    refute_includes Rubyrig::Reporters::Html.new(r).render, %(id="http")
    assert_equal({"cells" => [], "connection_modes" => [], "rails_overhead" => []}, JSON.parse(Rubyrig::Reporters::Json.new(r).render)["http"])
  end

  def test_a_column_needs_a_known_unit
    e = assert_raises(ArgumentError) { Rubyrig::Analysis::Section.table(name: "x", title: "x", columns: [[:a, "a", "parsecs"]], rows: []) }
    assert_equal 'unknown unit "parsecs" of column a', e.message
  end
end
