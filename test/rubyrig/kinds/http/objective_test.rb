# The latency objective of an http workload (`slo:`): how it is written and read, whether a run meets
# it and why not, and the errors that name the line and the fix.
require "test_helper"

class ObjectiveTest < Minitest::Test
  Objective = Rubyrig::Kinds::Http::Objective

  def parse(text) = Objective.parse(text, max_error_rate: 0.01)

  def test_percentiles_bounds_and_units
    {"p99 < 50ms" => ["p99", 0.05, false, "p99 < 50 ms"], "p50<=1.5s" => ["p50", 1.5, true, "p50 <= 1.5 s"],
     " p999 < 250 ms " => ["p999", 0.25, false, "p99.9 < 250 ms"], "p99.9 < 2s" => ["p999", 2.0, false, "p99.9 < 2 s"],
     "p95 < 12.5ms" => ["p95", 0.0125, false, "p95 < 12.5 ms"], "p90 < 0.2s" => ["p90", 0.2, false, "p90 < 200 ms"]}.each do |text, (pct, bound, inclusive, shown)|
      objective, problem = parse(text)
      assert_nil problem, text
      assert_equal [pct, inclusive, shown], [objective.percentile, objective.inclusive, objective.to_s], text
      assert_in_delta bound, objective.bound_s, 1e-12, text
      assert_equal "latency_#{pct}_s", objective.metric
    end
  end

  def test_what_is_not_an_objective
    ["p98 < 50ms", "p99 > 50ms", "p99 < 50", "p99 < 50us", "99 < 50ms", "p99 < 0ms", "", 50, nil].each do |text|
      objective, problem = parse(text)
      assert_nil objective, text.inspect
      assert_match(/e\.g\. "p99 < 50ms"/, problem, text.inspect)
    end
  end

  def test_a_run_meets_the_objective_or_says_why_not
    objective, = parse("p99 < 50ms")
    assert_nil objective.miss({"p99" => 0.0499}, 0.01)
    assert_equal "p99 50 ms is not < 50 ms", objective.miss({"p99" => 0.05}, 0.0)
    assert_nil parse("p99 <= 50ms").first.miss({"p99" => 0.05}, 0.0)
    assert_equal "error rate 1.50% is above max_error_rate 1.00%", objective.miss({"p99" => 0.001}, 0.015)
    assert_equal "no p99 was measured", objective.miss({"p50" => 0.001}, 0.0)
  end

  def test_slo_in_an_experiment_names_its_line_and_the_fix
    yaml = "runtimes: [system]\nworkloads:\n  - builtin: rack-hello\n    max_error_rate: 0.02\n    slo: p98 < 5ms\n"
    error = assert_raises(Rubyrig::ExperimentError) { Rubyrig::Experiment.load(write(tmpdir, "exp.yml", yaml)) }
    assert_match(/exp\.yml:5: slo must be a latency objective; write a percentile \(p50, p90, p95, p99 or p999\)/, error.message)
  end

  def test_slo_needs_the_open_loop
    yaml = "runtimes: [system]\nworkloads:\n  - builtin: rack-hello\n    slo: p99 < 5ms\n"
    error = assert_raises(Rubyrig::ExperimentError) { Rubyrig::Experiment.load(write(tmpdir, "exp.yml", yaml)) }
    assert_match(/exp\.yml:4: slo needs load_model: open/, error.message)
  end

  def test_open_loop_with_an_slo_and_no_rate_searches_with_the_default_settings
    yaml = "runtimes: [system]\nworkloads:\n  - builtin: rack-hello\n    load_model: open\n    slo: p99 < 5ms\n"
    options = Rubyrig::Experiment.load(write(tmpdir, "exp.yml", yaml)).workloads.first.options
    assert_equal Rubyrig::Kinds::Http::Capacity::DEFAULTS, options["capacity"]
    yaml += "    capacity: {resolution: 0.1}\n"
    assert_in_delta 0.1, Rubyrig::Experiment.load(write(tmpdir, "exp.yml", yaml)).workloads.first.options["capacity"]["resolution"]
  end

  def test_capacity_settings_are_checked_with_their_line
    base = "runtimes: [system]\nworkloads:\n  - builtin: rack-hello\n    load_model: open\n    slo: p99 < 5ms\n"
    {"    capacity: {growth: 1}\n" => /exp\.yml:6: growth must be a factor above 1 and at most 10, e\.g\. 2, got 1/,
     "    capacity: {step: 3}\n" => /exp\.yml:6: unknown key 'step' in capacity; did you mean 'step_s'/,
     "    capacity: {}\n    params: {rate: 10}\n" => /exp\.yml:6: capacity searches the offered rate, so params must not give rate/}.each do |extra, pattern|
      dir = tmpdir
      write(dir, "app/config.ru", "run ->(env) { [200, {}, ['x']] }\n")
      yaml = (base + extra).sub("builtin: rack-hello", "app: app")
      error = assert_raises(Rubyrig::ExperimentError) { Rubyrig::Experiment.load(write(dir, "exp.yml", yaml)) }
      assert_match(pattern, error.message)
    end
  end
end
