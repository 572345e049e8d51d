require "test_helper"
require "support_report"

# What a run records of its metrics is what its report reads: today's code only stands in for runs
# that recorded none.
class MetricsTest < Minitest::Test
  include SupportReport

  # Today's definitions with iterations/s made lower-is-better seconds under another label, recorded.
  def altered_record
    record = Rubyrig::Metrics.current.to_record
    definitions = record["definitions"].merge("iterations_per_s" => {"unit" => "s", "higher_is_better" => false, "kind" => "speed",
                                                                     "rate" => false, "label" => "recorded iterations"})
    JSON.parse(JSON.generate(record.merge("definitions" => definitions, "headline" => %w[cpu_user_s])))
  end

  def test_a_catalogue_reads_back_what_it_records
    current = Rubyrig::Metrics.current
    read = Rubyrig::Metrics::Catalogue.from_record(JSON.parse(JSON.generate(current.to_record)))
    assert_equal current.definitions, read.definitions
    assert_equal current.headline("run_s"), read.headline("run_s")
    assert read.recorded?
    refute current.recorded?
  end

  def test_a_metric_outside_the_record_is_read_by_its_suffix
    read = Rubyrig::Metrics::Catalogue.from_record({"definitions" => {}, "headline" => []})
    assert_equal ["1/s", true, true], read.fetch("checks_per_s").to_h.values_at(:unit, :higher_is_better, :rate)
    assert_equal ["B", false], read.fetch("heap_bytes").to_h.values_at(:unit, :higher_is_better)
  end

  def test_the_report_reads_the_recorded_direction_unit_and_label_not_todays
    meta = synthetic_meta.merge("format_version" => 3, "metrics" => altered_record)
    report = Rubyrig::Analysis.new.analyze(meta: meta, trials: synthetic_trials(meta, {"base" => [10.0, 10.1, 9.9, 10.05, 9.95],
                                                                                        "fast" => [12.0, 12.1, 11.9, 12.05, 11.95]}))
    c = report.comparison("fast", "builtin:nbody", {"n" => 1}, "iterations_per_s")
    assert_equal "slower", c.verdict, "more of a lower-is-better metric is slower"
    assert_equal "s", c.unit
    assert_equal "s", report.summary("fast | builtin:nbody | n=1", "iterations_per_s").unit
    terminal = Rubyrig::Reporters::Terminal.new(report, color: false).render
    assert_match(/recorded iterations \(lower is better\)/, terminal)
    assert_empty report.warnings.grep(/did not record its metric definitions/)
    assert_equal %w[cpu_user_s], report.metrics.headline("iterations_per_s")
    assert_equal "iterations/s", Rubyrig::Metrics.fetch("iterations_per_s").label, "outside the report, today's definitions"
  end

  def test_a_run_without_recorded_definitions_reads_todays_and_says_so
    report = synthetic_report
    assert_equal "faster", report.comparison("fast", "builtin:nbody", {"n" => 1}, "iterations_per_s").verdict
    assert_equal 1, report.warnings.grep(/this run \(results format 1\) did not record its metric definitions; units, directions and labels are today's/).size
  end
end
