require "test_helper"

# The history on real processes (issue 36's Done-when): 12 separate `rubyrig run --history` calls of
# builtin:alloc-churn where the runtime's environment changes from run 7 on (a heap that barely grows:
# RUBY_GC_HEAP_GROWTH_FACTOR=1.01 with RUBY_GC_HEAP_FREE_SLOTS=100 makes the GC run about 17 times as
# often: about 2x slower and 20% less peak RSS, measured before writing this test) give exactly one
# change point, at run 7, decided, in the primary metric and in peak RSS, and the gate names it; 12
# unchanged runs give none. The effect is far larger than a busy host's drift between runs.
class HistoryChangePointTest < Minitest::Test
  include SlowTest

  RUNS = 12
  STEP = 7
  TIGHT_HEAP = {"RUBY_GC_HEAP_GROWTH_FACTOR" => "1.01", "RUBY_GC_HEAP_FREE_SLOTS" => "100"}.freeze
  METRICS = %w[iterations_per_s peak_rss_bytes].freeze

  def experiment(dir, env)
    runtime = {"spec" => "system", "label" => "system"}
    runtime["env"] = env unless env.empty?
    write(dir, env.empty? ? "plain.yml" : "tight.yml", JSON.generate(
      "name" => "gc-history", "runtimes" => [runtime], "seed" => 3, "batches" => 3,
      "workloads" => [{"builtin" => "alloc-churn", "params" => {"objects" => 30000, "retained" => 20000}, "iterations" => 3, "warmup" => 1}]
    ))
  end

  # Runs the 12 runs into a history (the tight heap from run `from` on, never when nil) and returns
  # `rubyrig history`'s [status, JSON, stderr].
  def history(from:)
    dir = tmpdir
    plain = experiment(dir, {})
    tight = experiment(dir, TIGHT_HEAP)
    path = File.join(dir, "history")
    RUNS.times do |i|
      file = (from && i + 1 >= from) ? tight : plain
      status, _, err = run_cli("run", file, "--results", File.join(dir, "run-#{i + 1}"), "--history", path)
      assert_equal 0, status, err
    end
    status, out, err = run_cli("history", path, *METRICS.flat_map { |m| ["--metric", m] }, "--format", "json", "--fail-if", "regressed")
    [status, JSON.parse(out).fetch("series").to_h { |s| [s["metric"], s] }, err]
  end

  def test_a_gc_setting_from_run_7_on_is_one_decided_change_point_at_run_7_and_unchanged_runs_have_none
    status, series, err = history(from: STEP)
    assert_equal METRICS, series.keys.sort
    series.each do |metric, s|
      assert_equal RUNS, s["points"].size
      assert_equal [STEP - 1], s["change_points"].map { |c| c["index"] }, "#{metric}: #{s["change_points"]}"
    end
    assert_equal "slower", series["iterations_per_s"]["change_points"].first["verdict"]
    assert_equal "lower", series["peak_rss_bytes"]["change_points"].first["verdict"]
    assert_equal 3, status, "the slower primary metric is a new regression"
    assert_match(/\Arubyrig: new regression: builtin:alloc-churn · objects=30000 retained=20000 · iterations_per_s on system: .* slower from run 7 \(/, err)
    assert_equal 1, err.lines.size

    status, series, err = history(from: nil)
    series.each { |metric, s| assert_empty s["change_points"], "#{metric}: #{s["change_points"]}" }
    assert_equal 0, status, err
  end
end
