require "test_helper"

# docs/results-format.md must describe what rubyrig really writes: a real run's files are checked
# field by field against the document, and the metric table against the catalogue.
class ResultsFormatDocTest < Minitest::Test
  include SlowTest

  DOC = File.read(File.join(RubyrigTest::ROOT, "docs/results-format.md"), encoding: "UTF-8")

  # {"run.json" => {"field" => "rest of the row"}, ...} from the tables under each "## " heading.
  def self.tables
    DOC.split(/^## /).drop(1).to_h do |section|
      title = section.lines.first.strip
      rows = section.lines.grep(/^\| `/).to_h do |row|
        cells = row.split(" | ")
        [cells.first[/`([^`]+)`/, 1], row]
      end
      [title, rows]
    end
  end

  TABLES = tables

  def documented(section) = TABLES.fetch(section).keys

  def test_a_real_run_matches_the_document
    dir = tmpdir
    run = File.join(dir, "run")
    status, _, err = run_cli("compare", "-r", "system", "-r", "system+yjit", "--batches", "1", "--iterations", "2",
      "--warmup", "1", "--param", "steps=200", "--results", run, "--", "builtin:nbody")
    assert_equal 0, status, err
    meta = Rubyrig::TextFile.json(File.join(run, "run.json"))
    assert_empty meta.keys - documented("run.json"), "run.json fields missing from the document"
    assert_equal Rubyrig::RESULTS_FORMAT_VERSION, meta["format_version"]
    interpreter_row = TABLES.fetch("run.json").fetch("runtimes")
    meta["runtimes"].values.first["interpreter"].each_key { |k| assert_includes interpreter_row, k }

    trials = trial_lines(run)
    trials.each do |trial|
      assert_empty trial.keys - documented("trials.jsonl"), "trial fields missing from the document"
      trial["facts"].each_key { |k| assert_includes TABLES.fetch("trials.jsonl").fetch("facts"), "`#{k}`" }
      assert_empty trial["metrics"].keys - documented("Metrics"), "metrics missing from the document"
    end

    summary = Rubyrig::TextFile.json(File.join(run, "summary.json"))
    assert_empty summary.keys - documented("summary.json (and --export-json)")
    rows = TABLES.fetch("summary.json (and --export-json)")
    summary["summaries"].first.each_key { |k| assert_includes rows.fetch("summaries"), "`#{k}`" }
    summary["comparisons"].first.each_key { |k| assert_includes rows.fetch("comparisons"), "`#{k}`" }
    summary["run"].each_key { |k| assert_includes rows.fetch("run"), "`#{k}`" }
  end

  def test_the_metric_table_is_the_catalogue
    assert_equal Rubyrig::Metrics::CATALOGUE.keys.sort, documented("Metrics").sort
    Rubyrig::Metrics::CATALOGUE.each_value do |m|
      row = TABLES.fetch("Metrics").fetch(m.name)
      assert_includes row, m.higher_is_better ? "| higher |" : "| lower |", m.name
    end
  end
end
