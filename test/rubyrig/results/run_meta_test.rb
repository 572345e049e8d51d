require "test_helper"

class RunMetaTest < Minitest::Test
  CELL = {"index" => 0, "runtime" => "a", "workload" => "app", "params" => {"threads" => 2}}.freeze

  def meta(extra = {})
    {"format_version" => 2, "baseline" => "a", "plan" => {"seed" => 9, "cells" => [CELL], "order" => []},
     "workloads" => {"app" => {"kind" => "http", "primary_metric" => "requests_per_s", "framework" => "rack"}}}.merge(extra)
  end

  def test_the_cpu_split_recorded_at_the_start_is_what_a_resume_gets
    run = Rubyrig::Results::RunMeta.new(meta("cpu_settings" => {"server_cpus" => "1", "load_cpus" => "0"}))
    assert_equal "1", run.cpu_settings.server_cpus
    assert_equal "0", run.cpu_settings.load_cpus
  end

  def test_a_format_1_run_takes_the_split_and_command_from_its_command_line
    run = Rubyrig::Results::RunMeta.new(meta("format_version" => 1, "command_line" => %w[rubyrig run exp.yml --server-cpus 1 --load-cpus=0]))
    assert_equal "1", run.cpu_settings.server_cpus
    assert_equal "0", run.cpu_settings.load_cpus
    assert_equal "run", run.command
  end

  def test_effective_parameters_are_read_from_the_run_not_from_todays_defaults
    recorded = CELL.merge("effective_params" => {"processes" => 1, "threads" => 2, "connection" => "keepalive"})
    run = Rubyrig::Results::RunMeta.new(meta("plan" => {"seed" => 9, "cells" => [recorded], "order" => []}))
    assert_equal({"processes" => 1, "threads" => 2, "connection" => "keepalive"}, run.cells.first.effective)
    assert_equal({"threads" => 2}, Rubyrig::Results::RunMeta.new(meta).cells.first.effective, "format 1: the given params")
  end

  def test_a_workload_reads_with_its_candidates_for_the_primary_metric
    workload = Rubyrig::Results::RunMeta.new(meta).workload("app")
    assert_equal "http", workload.kind
    assert_equal ["requests_per_s"], workload.primary_metrics
    assert_equal "rack", workload.framework
    assert_equal [], workload.sweeps
    assert_nil workload.revision, "runs before revisions were recorded"
  end

  def test_a_workload_reads_the_revision_of_its_code
    base = meta
    revision = {"commit" => "a" * 40, "dirty" => true}
    base["workloads"]["app"] = base["workloads"]["app"].merge("revision" => revision)
    assert_equal revision, Rubyrig::Results::RunMeta.new(base).workload("app").revision
  end
end
