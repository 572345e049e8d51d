# The test's own report section (test/fixtures/sections) through the real path: a section handed to
# the CLI is computed from a real run's trials by `rubyrig run` and again by `rubyrig report`, in the
# terminal and in every export, and a CLI without it shows no trace of it.
require "test_helper"
require "csv"
require_relative "../fixtures/sections/batches"

class SectionsRunTest < Minitest::Test
  include SlowTest

  def cli(*args, sections: Rubyrig::Analysis::Sections::DEFAULT.with(FixtureSection))
    out = StringIO.new(+"")
    err = StringIO.new(+"")
    env = ENV.to_h.merge("RUBYRIG_CACHE_DIR" => cache_dir)
    status = Rubyrig::CLI.new(args, env: env, out: out, err: err, sections: sections).run
    [status, out.string, err.string]
  end

  def test_a_section_goes_through_run_and_report_in_every_format
    dir = tmpdir
    bench = write(dir, "bench.rb", "Rubyrig.bench { 2_000.times.sum }\n")
    experiment = write(dir, "exp.yml", "runtimes: [system]\nworkloads:\n  - script: #{bench}\n    iterations: 3\n    warmup: 1\nbatches: 3\nseed: 5\n")
    run = File.join(dir, "run")
    status, out, err = cli("run", experiment, "--results", run)
    assert_equal 0, status, err
    medians = trial_lines(run).map { |t| t.dig("metrics", "iterations_per_s") }.sort
    table = /^Fixture batches per runtime\n\s+runtime\s+n\s+median iterations\/s\n\s+system\s+3\s+\S+\/s$/
    assert_match(table, out, "`rubyrig run` shows the section")

    exports = %w[json csv markdown html].to_h { |f| [f, File.join(dir, "report.#{f}")] }
    status, terminal, err = cli("report", run, *exports.flat_map { |f, path| ["--export-#{f}", path] })
    assert_equal 0, status, err
    assert_match(table, terminal, "`rubyrig report` shows it again")
    rows = JSON.parse(Rubyrig::Processes::TextFile.read(exports["json"]))["fixture"]
    assert_equal [["system", 3]], rows.map { |r| [r["runtime"], r["n"]] }
    assert_in_delta medians[1], rows.first["iterations_per_s"], 1e-9 * medians[1], "the median of the run's own 3 batches"
    csv = CSV.parse(Rubyrig::Processes::TextFile.read(exports["csv"]), headers: true).select { |r| r["section"] == "fixture_batches" }
    assert_equal [%w[system iterations_per_s]], csv.map { |r| [r["runtime"], r["metric"]] }
    assert_match(/\*\*Fixture batches per runtime\*\*/, Rubyrig::Processes::TextFile.read(exports["markdown"]))
    assert_includes Rubyrig::Processes::TextFile.read(exports["html"]), %(<section id="fixture"><h2>Fixture</h2>)

    status, plain, err = cli("report", run, "--export-json", exports["json"], sections: Rubyrig::Analysis::Sections::DEFAULT)
    assert_equal 0, status, err
    refute_match(/Fixture/, plain)
    refute JSON.parse(Rubyrig::Processes::TextFile.read(exports["json"])).key?("fixture")
  end
end
