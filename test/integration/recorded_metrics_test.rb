require "test_helper"
require "open3"

# A finished run renders the same report forever: the metric definitions it recorded in run.json
# (unit, direction, label), not today's code's, give its report. `rubyrig report` runs as a real
# process, once as today's code is and once with the script kind's iterations/s defined otherwise
# (test/fixtures/metrics/altered.rb), as a later rubyrig might.
class RecordedMetricsTest < Minitest::Test
  include SlowTest

  ALTERED = File.join(RubyrigTest::ROOT, "test/fixtures/metrics/altered.rb")
  OUTPUTS = %w[summary.json report.md].freeze

  def run_dir
    dir = tmpdir
    run = File.join(dir, "run")
    status, _, err = run_cli("compare", "-r", "a=system", "-r", "b=system", "--batches", "2", "--iterations", "2", "--warmup", "1",
      "--param", "steps=200", "--seed", "4", "--results", run, "--", "builtin:nbody")
    assert_equal 0, status, err
    run
  end

  # The terminal report and the report files `rubyrig report` writes again into the run.
  def report(run, altered:)
    env = ENV.to_h.merge("RUBYRIG_CACHE_DIR" => cache_dir, "NO_COLOR" => "1")
    env["RUBYOPT"] = [ENV["RUBYOPT"], "-r#{ALTERED}"].compact.join(" ") if altered
    out, err, status = Open3.capture3(env, RbConfig.ruby, EXE, "report", run)
    assert status.success?, err
    [out.force_encoding(Encoding::UTF_8), *OUTPUTS.map { |f| Rubyrig::Processes::TextFile.read(File.join(run, f)) }]
  end

  def test_a_run_reports_the_same_after_a_metric_is_defined_otherwise
    run = run_dir
    before = report(run, altered: false)
    assert_match(%r{iterations/s \(higher is better\)}, before.first)
    after = report(run, altered: true)
    OUTPUTS.each_with_index { |file, i| assert_equal before[i + 1], after[i + 1], "#{file} changed with today's definitions" }
    assert_equal before.first, after.first
  end

  # A run from before the definitions were recorded reads today's, and says so.
  def test_a_run_without_recorded_definitions_reads_todays_and_says_so
    run = run_dir
    meta = Rubyrig::Processes::TextFile.json(File.join(run, "run.json"))
    File.write(File.join(run, "run.json"), JSON.generate(meta.except("metrics").merge("format_version" => 2)))
    out = report(run, altered: true).first
    assert_match(/altered iterations \(lower is better\)/, out)
    assert_match(/this run \(results format 2\) did not record its metric definitions; units, directions and labels are today's/, out)
  end
end
