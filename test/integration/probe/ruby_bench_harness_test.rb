require "test_helper"

# rubyrig's implementation of ruby-bench's harness contract, loaded the way ruby-bench swaps harnesses:
# a benchmark requires ../harness/loader, whose `require "harness"` finds the harness folder given
# with -I first (here rubyrig's, never the suite's own).
class RubyBenchHarnessTest < Minitest::Test
  include SlowTest

  DIR = File.join(RubyrigTest::ROOT, "lib/rubyrig/probe/ruby_bench")

  # A ruby-bench-like tree: a loader that looks for "harness" on the load path first, and a harness
  # of its own that must never load under rubyrig.
  def suite(body)
    root = tmpdir
    write(root, "harness/loader.rb", "begin\n  require \"harness\"\nrescue LoadError\n  $LOAD_PATH << __dir__\n  require \"harness\"\nend\n")
    write(root, "harness/harness.rb", "raise \"the suite's own harness loaded\"\n")
    write(root, "benchmarks/b.rb", "require_relative \"../harness/loader\"\n#{body}")
  end

  def run_bench(body, env: {})
    file = suite(body)
    probe_dir = tmpdir
    _, err, exit = Rubyrig::Processes::Child.capture(["ruby", "-I", DIR, file],
      env: {"RUBYRIG_PROBE_DIR" => probe_dir, "RUBYOPT" => nil, "BUNDLE_GEMFILE" => nil}.merge(env))
    [exit, err, Dir.glob(File.join(probe_dir, "probe-*.json")).map { |f| Rubyrig::Processes::TextFile.json(f) }.first, file]
  end

  def test_warmup_and_measured_iterations_are_timed_apart_with_the_contracts_counts
    exit, err, facts = run_bench("run_benchmark(3) { sleep 0.005 }\n",
      env: {"WARMUP_ITRS" => "2", "MIN_BENCH_ITRS" => "4", "MIN_BENCH_TIME" => "0"})
    assert exit.success?, err
    assert_equal 2, facts.dig("bench", "warmup_s").size
    assert_equal 4, facts.dig("bench", "iterations_s").size
    assert(facts.dig("bench", "iterations_s").all? { |t| t >= 0.005 })
  end

  # MIN_BENCH_TIME counts the whole loop, warmup included: iterations go on past MIN_BENCH_ITRS until it is reached.
  def test_the_minimum_time_adds_iterations
    exit, err, facts = run_bench("run_benchmark(3) { sleep 0.02 }\n",
      env: {"WARMUP_ITRS" => "1", "MIN_BENCH_ITRS" => "1", "MIN_BENCH_TIME" => "0.2"})
    assert exit.success?, err
    times = facts.dig("bench", "warmup_s") + facts.dig("bench", "iterations_s")
    # The loop stops at the first iteration that brings the whole loop to 0.2 s once the two counted
    # ones have run: how many that takes depends on how long each sleep took here.
    assert_operator times.sum, :>=, 0.2
    if times.first(2).sum < 0.2
      assert_operator times.size, :>, 2, "iterations were added until the loop had run 0.2 s"
      assert_operator times[0...-1].sum, :<, 0.2, "and none after"
    end
  end

  # A block that uses `cpu_s` of the process's CPU time, and `sleep_s` asleep (a busy host's wait for a CPU).
  def spin(cpu_s, sleep_s = 0)
    "cpu = lambda { Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) }\n" \
      "run_benchmark(3) { sleep #{sleep_s}; t = cpu.call; nil while cpu.call - t < #{cpu_s} }\n"
  end

  # rubyrig's seconds per batch (a suite on a time budget): warmup goes on past WARMUP_ITRS until the
  # process has spent RUBYRIG_WARMUP_TIME seconds of CPU in it, the measured iterations past
  # MIN_BENCH_ITRS until they add up to RUBYRIG_BENCH_TIME, and neither runs an iteration more.
  def test_seconds_of_warmup_and_of_measured_iterations
    exit, err, facts = run_bench(spin(0.02),
      env: {"WARMUP_ITRS" => "1", "MIN_BENCH_ITRS" => "1", "MIN_BENCH_TIME" => "0", "RUBYRIG_WARMUP_TIME" => "0.1", "RUBYRIG_BENCH_TIME" => "0.15"})
    assert exit.success?, err
    warmup = facts.dig("bench", "warmup_s")
    # Each iteration takes at least 0.02 s of CPU, so the fifth brings the warmup to 0.1 s.
    assert_includes 2..5, warmup.size, warmup.inspect
    times = facts.dig("bench", "iterations_s")
    assert_operator times.sum, :>=, 0.15
    assert_operator times[0...-1].sum, :<, 0.15, "no measured iteration after the time was reached"
    assert_operator times.size, :>=, 2, "0.02 s iterations need several to reach 0.15 s"
  end

  # Warmup is never ended by wall time alone: iterations that wait 30 ms for every 10 ms of CPU (a
  # busy host) reach 0.1 s of wall time in three iterations, but the warmup goes on until the process
  # has spent 0.1 s of CPU in it, at most ten such iterations.
  def test_warmup_is_not_ended_by_wall_time_on_a_busy_host
    exit, err, facts = run_bench(spin(0.01, 0.03),
      env: {"WARMUP_ITRS" => "1", "MIN_BENCH_ITRS" => "1", "MIN_BENCH_TIME" => "0", "RUBYRIG_WARMUP_TIME" => "0.1"})
    assert exit.success?, err
    warmup = facts.dig("bench", "warmup_s")
    assert_operator warmup.first(3).sum, :>=, 0.1, "three iterations already took 0.1 s of wall time"
    assert_includes 6..10, warmup.size, "warmup counted CPU seconds: #{warmup.inspect}"
  end

  def test_without_any_count_the_block_still_runs_once
    _, _, facts = run_bench("run_benchmark(3) { }\n", env: {"WARMUP_ITRS" => "0", "MIN_BENCH_ITRS" => "0", "MIN_BENCH_TIME" => "0"})
    assert_equal 1, facts.dig("bench", "iterations_s").size
  end

  def test_the_contracts_defaults_and_constants
    exit, err, facts = run_bench("RubyrigProbe.record(:seen, [WARMUP_ITRS, MIN_BENCH_ITRS, MIN_BENCH_TIME, rand(1000), make_shareable(:x)])\n")
    assert exit.success?, err
    assert_equal [15, 10, 10.0, Random.new(1337).rand(1000), "x"], facts["seen"]
  end

  def test_run_benchmark_twice_is_an_error
    exit, err, = run_bench("run_benchmark(1) { }\nrun_benchmark(1) { }\n", env: {"WARMUP_ITRS" => "0", "MIN_BENCH_ITRS" => "1", "MIN_BENCH_TIME" => "0"})
    refute exit.success?
    assert_match(/run_benchmark may be called once per benchmark/, err)
  end

  def test_use_gemfile_without_a_gem_set_names_the_fix
    exit, err, = run_bench("use_gemfile\n")
    refute exit.success?
    assert_match(/use_gemfile: rubyrig installed no gem set for .*; put the Gemfile beside the benchmark or give it with gemfile:/, err)
  end

  def test_use_gemfile_runs_the_setup_command_in_the_current_directory_and_fails_with_it
    gemfile = write(tmpdir, "Gemfile", "source \"https://rubygems.org\"\n")
    File.write("#{gemfile}.lock", "GEM\n  remote: https://rubygems.org/\n  specs:\n\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n")
    exit, err, _, file = run_bench("Dir.chdir(__dir__)\nuse_gemfile(extra_setup_cmd: \"ruby -e 'File.write(%q(done), 1)'\")\nrun_benchmark(1) { }\n",
      env: {"BUNDLE_GEMFILE" => gemfile, "WARMUP_ITRS" => "0", "MIN_BENCH_ITRS" => "1", "MIN_BENCH_TIME" => "0"})
    assert exit.success?, err
    assert File.exist?(File.join(File.dirname(file), "done")), "the setup command ran in the benchmark's directory"
    exit, err, = run_bench("use_gemfile(extra_setup_cmd: \"false\")\n", env: {"BUNDLE_GEMFILE" => gemfile})
    refute exit.success?
    assert_match(/use_gemfile: the setup command `false` failed in /, err)
  end
end
