require "test_helper"
require "support/probe_schema"

# The checker of the probe report's schema (docs/results-format.md, "Probe report") refuses what does
# not match it; test/integration/probe/probe_schema_test.rb holds both probes' real reports to it.
class ProbeSchemaTest < Minitest::Test
  REPORT = {"pid" => 10, "ppid" => 1, "engine" => "ruby", "engine_version" => "3.1.2", "ruby_version" => "3.1.2",
            "description" => "ruby 3.1.2", "started_at_monotonic" => 1.5, "yjit_enabled" => false, "allocator" => nil,
            "mn_threads_env" => nil, "env" => {}, "program" => "-e", "exited_at_monotonic" => 2.5,
            "gc" => {"count" => 1, "minor_count" => 0, "major_count" => 1, "time_ms" => 0, "total_allocated_objects" => 9},
            "memory" => {"rss_bytes" => 1, "hwm_bytes" => 2, "ruby_heap_bytes" => 3}, "threads" => 1,
            "probe_load_s" => 0.001, "probe_report_s" => 0.0001}.freeze
  EXIT = %w[always exit].freeze

  def test_a_whole_exit_report_matches
    assert_empty ProbeSchema.problems(REPORT, conditions: EXIT)
  end

  def test_a_field_outside_the_schema_a_missing_one_or_a_wrong_type_does_not
    assert_equal ["threads_max: not in the schema for always, exit"], ProbeSchema.problems(REPORT.merge("threads_max" => 2), conditions: EXIT)
    assert_equal ["gc.heap_pages: not in the schema for always, exit"],
      ProbeSchema.problems(REPORT.merge("gc" => REPORT["gc"].merge("heap_pages" => 1)), conditions: EXIT)
    assert_equal ["memory.hwm_bytes: missing"], ProbeSchema.problems(REPORT.merge("memory" => REPORT["memory"].except("hwm_bytes")), conditions: EXIT)
    assert_equal ["threads: \"1\" is not Integer"], ProbeSchema.problems(REPORT.merge("threads" => "1"), conditions: EXIT)
    assert_equal ["memory.pss_bytes: missing"], ProbeSchema.problems(REPORT, conditions: EXIT + %w[pss])
  end

  def test_records_are_expected_by_name
    assert_equal ["run_s: not in the schema for always, exit"], ProbeSchema.problems(REPORT.merge("run_s" => 1.0), conditions: EXIT)
    assert_empty ProbeSchema.problems(REPORT.merge("run_s" => 1.0), conditions: EXIT, records: %w[run_s])
  end
end
