require "test_helper"

class HarnessTest < Minitest::Test
  include SlowTest

  HARNESS = File.join(RubyrigTest::ROOT, "lib/rubyrig/probe/harness.rb")

  def run_script(body, env: {})
    dir = tmpdir
    script = write(dir, "bench.rb", body)
    _, err, exit = Rubyrig::Processes::Child.capture(["ruby", "-r#{HARNESS}", script],
      env: {"RUBYRIG_PROBE_DIR" => dir, "RUBYOPT" => nil}.merge(env))
    [exit, err, Dir.glob(File.join(dir, "probe-*.json")).map { |f| Rubyrig::Processes::TextFile.json(f) }.first]
  end

  def test_bench_times_warmup_and_measured_iterations_apart
    exit, err, facts = run_script("Rubyrig.bench(iterations: 4, warmup: 2) { sleep 0.01 }")
    assert exit.success?, err
    assert_equal 2, facts.dig("bench", "warmup_s").size
    assert_equal 4, facts.dig("bench", "iterations_s").size
    assert(facts.dig("bench", "iterations_s").all? { |t| t >= 0.01 })
  end

  def test_experiment_settings_override_the_script
    _, _, facts = run_script("Rubyrig.bench(iterations: 4, warmup: 2) { }", env: {"RUBYRIG_ITERATIONS" => "7", "RUBYRIG_WARMUP" => "0"})
    assert_equal 7, facts.dig("bench", "iterations_s").size
    assert_empty facts.dig("bench", "warmup_s")
  end

  def test_params_are_typed_by_their_default
    _, _, facts = run_script(<<~RUBY, env: {"RUBYRIG_PARAMS" => "threads=4\nratio=0.5\nmode=fast\nflag=true"})
      RubyrigProbe.record(:seen, [Rubyrig.param("threads", 1), Rubyrig.param("ratio", 1.0),
        Rubyrig.param("mode", "slow"), Rubyrig.param("flag", false), Rubyrig.param("missing", 9)])
    RUBY
    assert_equal [4, 0.5, "fast", true, 9], facts["seen"]
  end

  # Keys and values with "=", "%", newlines and shell syntax reach the script as they were given.
  def test_params_arrive_as_given_whatever_they_hold
    params = {"plain" => "x", "a=b" => "c=d", "text" => "line1\nline2\r\n%0A 100% $(touch x) 'q' \"d\" | ;", "empty" => ""}
    context = Rubyrig::Drivers::Context.new(batch: Rubyrig::Experiment::Plan::Batch.new(cell: Rubyrig::Experiment::Cell.new(params: params)))
    _, err, facts = run_script(<<~RUBY, env: {"RUBYRIG_PARAMS" => context.params_env})
      RubyrigProbe.record(:seen, #{params.keys.inspect}.map { |k| Rubyrig.param(k, "default") })
    RUBY
    assert_equal params.values, facts["seen"], err
  end

  def test_a_script_without_bench_is_timed_as_one_run
    _, _, facts = run_script("sleep 0.05")
    assert_operator facts["run_s"], :>=, 0.05
    assert_nil facts["bench"]
  end

  def test_bench_twice_is_an_error
    exit, err, = run_script("Rubyrig.bench(iterations: 1, warmup: 0) { }\nRubyrig.bench { }")
    refute exit.success?
    assert_match(/Rubyrig.bench may be called once per script/, err)
  end

  def test_a_mistyped_keyword_is_an_error_not_the_default
    exit, err, facts = run_script("Rubyrig.bench(iteratons: 5) { }")
    refute exit.success?
    assert_match(/unknown keyword: :iteratons; Rubyrig.bench takes iterations: and warmup:/, err)
    assert_nil facts&.dig("bench")
  end
end
