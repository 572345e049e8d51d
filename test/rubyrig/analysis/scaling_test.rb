require "test_helper"
require "support_report"

class ScalingTest < Minitest::Test
  include SupportReport

  # base scales linearly with threads; slow collapses beyond one thread (the seed 000 regression).
  def sweep_report
    values = lambda do |runtime, params, batch|
      jitter = [0.0, 0.01, -0.01, 0.005, -0.005][batch - 1]
      threads = params["threads"]
      speed = if runtime == "base"
        10.0 * threads
      else
        ((threads == 1) ? 10.0 : 4.0)
      end
      speed * (1 + jitter)
    end
    synthetic_report(runtimes: %w[base slow], params: [1, 2, 4].map { |t| {"threads" => t, "calls" => 100} }, values: values)
  end

  def test_a_threads_sweep_gives_one_table_with_ratios_to_one_thread
    tables = sweep_report.sweeps
    assert_equal 1, tables.size
    table = tables.first
    assert_equal "threads", table.param
    assert_equal({"calls" => 100}, table.fixed)
    assert_equal %w[base slow], table.runtimes
    assert_equal [1, 2, 4], table.rows.map(&:value)
    assert_nil table.rows.first.cells["base"].ratio
    four = table.rows.last.cells
    assert_in_delta 4.0, four["base"].ratio, 0.05
    assert_in_delta 0.4, four["slow"].ratio, 0.01
    assert_operator four["slow"].comparison.ci[1], :<, 1.0
    assert_in_delta 40.0, four["base"].median, 0.5
    assert_equal "faster", four["base"].comparison.verdict
    assert_equal "slower", four["slow"].comparison.verdict
    assert_operator four["slow"].comparison.p_adjusted, :<, 0.05
  end

  def test_no_table_without_a_sweep
    assert_empty synthetic_report.sweeps
  end

  def test_reporters_show_the_scaling_table
    report = sweep_report
    text = Rubyrig::Reporters::Terminal.new(report, color: false).render
    assert_match(/Sweep over threads · builtin:nbody · calls=100/, text)
    assert_match(/^\s+4\s+40\.\d+\/s 4\.0\d\dx \[[\d.]+, [\d.]+\] faster\s+4\.0\d*\/s 0\.4\d\dx \[[\d.]+, [\d.]+\] slower$/, text)
    markdown = Rubyrig::Reporters::Markdown.new(report).render
    assert_match(/\| threads \| base \| slow \|/, markdown)
    assert_match(/\| 4 \| 40\.00\/s 4\.000x \\\[[\d.]+, [\d.]+\\\] faster \|/, markdown)
  end

  def test_yjit_mem_sweeps_report_memory_next_to_speed
    meta = synthetic_meta(runtimes: %w[m16 m32])
    meta["runtimes"]["m16"]["spec"] = "3.3.8+yjit-mem=16"
    meta["runtimes"]["m32"]["spec"] = "3.3.8+yjit-mem=32"
    trials = synthetic_trials(meta, {"m16" => [1.0] * 5, "m32" => [2.0] * 5})
    report = Rubyrig::Analysis.new.analyze(meta: meta, trials: trials)
    rows = report.yjit_memory
    assert_equal [16, 32], rows.map(&:yjit_mem)
    assert_equal [1.0, 2.0], rows.map(&:speed)
    assert(rows.all? { |r| r.peak_rss_bytes.positive? })
  end
end
