require "test_helper"

# rubyrig's stand-in for the benchmark-ips gem: a file's `require "benchmark/ips"` finds it first on
# the load path; each x.report item is measured on its own and handed to the probe.
class BenchmarkIpsShimTest < Minitest::Test
  include SlowTest

  DIR = File.join(RubyrigTest::ROOT, "lib/rubyrig/probe/benchmark_ips")

  def run_file(body, env: {})
    dir = tmpdir
    file = write(dir, "bench.rb", "require \"benchmark/ips\"\n#{body}")
    _, err, exit = Rubyrig::Processes::Child.capture(["ruby", "-I", DIR, file], env: {"RUBYRIG_PROBE_DIR" => dir, "RUBYOPT" => nil}.merge(env))
    [exit, err, Dir.glob(File.join(dir, "probe-*.json")).map { |f| Rubyrig::Processes::TextFile.json(f) }.first]
  end

  def test_each_report_is_an_item_with_its_iterations_per_second
    exit, err, facts = run_file(<<~RUBY)
      report = Benchmark.ips do |x|
        x.config(time: 0.2, warmup: 0.05)
        x.report("sleep") { sleep 0.01 }
        x.report("counted") { |n| n.times { } }
        x.report("string", "1 + 1")
        x.compare!
      end
      RubyrigProbe.record(:returned, report.entries.map { |e| [e.label, e.iterations > 0, e.ips > 0] })
    RUBY
    assert exit.success?, err
    items = facts["items"]
    assert_equal %w[sleep counted string], items.map { |i| i["item"] }
    sleep = items.first
    # sleep 0.01 cannot run more than 100 times a second. Each item's rounds go on until its 0.2 s have
    # passed (so the process ran at least 3 x 0.2 s), and every round but the last ended before that.
    assert_operator sleep.dig("metrics", "iterations_per_s"), :<=, 100
    assert_operator exit.wall_s, :>=, 3 * 0.2
    items.each { |i| assert_operator i.dig("samples", "measured_s") - i.dig("samples", "rounds_s").last, :<, 0.2, i["item"] }
    assert_in_delta sleep.dig("samples", "iterations") / sleep.dig("samples", "measured_s"), sleep.dig("metrics", "iterations_per_s"), 1e-6
    assert_equal sleep.dig("samples", "rounds_s").size * sleep.dig("samples", "cycles"), sleep.dig("samples", "iterations")
    # An empty block runs far faster than a sleeping one: the count is handed to the block itself.
    assert_operator items[1].dig("metrics", "iterations_per_s"), :>, 100 * sleep.dig("metrics", "iterations_per_s")
    assert_equal [["sleep", true, true], ["counted", true, true], ["string", true, true]], facts["returned"]
  end

  def test_the_experiment_overrides_the_files_times
    exit, err, facts = run_file("Benchmark.ips(30, 10) { |x| x.report(\"a\") { } }\n",
      env: {"RUBYRIG_IPS_TIME_S" => "0.1", "RUBYRIG_IPS_WARMUP_S" => "0"})
    assert exit.success?, err
    samples = facts["items"].first["samples"]
    # Every round but the last ended before the deadline: 30 s in the file became 0.1 s.
    assert_operator samples["measured_s"] - samples["rounds_s"].last, :<, 0.1, "30 s in the file became 0.1 s"
    assert_equal 1, facts["items"].first.dig("samples", "cycles"), "without warmup, rounds of one call, as in the gem"
  end

  def test_repeated_labels_stay_apart_and_suite_hooks_run
    exit, err, facts = run_file(<<~RUBY)
      class Hooks
        def initialize = @calls = []
        attr_reader :calls
        def warming(label, _s) = @calls << "warming \#{label}"
        def running(label, _s) = @calls << "running \#{label}"
      end
      hooks = Hooks.new
      2.times do
        Benchmark.ips(time: 0.05, warmup: 0.01, quiet: true) do |x|
          x.config(suite: hooks)
          x.hold!("held")
          x.json!("out.json")
          x.report("a") { }
        end
      end
      Benchmark.ips_quick(:to_s, :inspect, on: 1, time: 0.05, warmup: 0)
      RubyrigProbe.record(:calls, hooks.calls)
    RUBY
    assert exit.success?, err
    assert_equal ["a", "a #2", "to_s", "inspect"], facts["items"].map { |i| i["item"] }
    assert_equal ["warming a", "running a", "warming a", "running a"], facts["calls"]
  end

  def test_a_report_without_code_is_the_gems_error
    exit, err, = run_file("Benchmark.ips { |x| x.report(\"a\") }\n")
    refute exit.success?
    assert_match(/no block or string/, err)
  end
end
