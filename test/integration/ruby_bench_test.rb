require "test_helper"

# ruby-bench's benchmarks run unmodified on real interpreters: a tree laid out like ruby-bench (written
# here, following its harness contract) with a loader that takes the harness from the load path, a
# harness of its own that must never load under rubyrig, a single-file benchmark and one in its own
# folder with a Gemfile and use_gemfile, whose setup command starts a Ruby of its own.
class RubyBenchTest < Minitest::Test
  include SlowTest

  def suite
    root = tmpdir
    write(root, "harness/loader.rb", Rubyrig::Processes::TextFile.read(File.expand_path("../fixtures/ruby_bench_suite/harness/loader.rb", __dir__)))
    write(root, "harness/harness.rb", "raise \"ruby-bench's own harness must not load under rubyrig\"\n")
    write(root, "benchmarks/fib.rb", <<~RUBY)
      require_relative "../harness/loader"
      def fib(n) = (n < 2) ? n : fib(n - 1) + fib(n - 2)
      run_benchmark(10) { fib(18) }
    RUBY
    write(root, "benchmarks/greet/Gemfile", "source \"https://rubygems.org\"\ngem \"rack\"\n")
    write(root, "benchmarks/greet/setup.rb", "File.write(File.join(__dir__, \"setup-\#{Process.pid}.txt\"), RubyVM::YJIT.enabled?.to_s)\n")
    write(root, "benchmarks/greet/benchmark.rb", <<~RUBY)
      require_relative "../../harness/loader"
      Dir.chdir(__dir__)
      use_gemfile(extra_setup_cmd: "ruby setup.rb")
      require "rack"
      run_benchmark(10) { 500.times { Rack::Utils.parse_query("name=ruby&lang=en") } }
    RUBY
    root
  end

  def test_a_checkout_runs_its_benchmarks_on_two_runtimes_with_the_harness_contract
    root = suite
    dir = tmpdir
    run = File.join(dir, "run")
    json = File.join(dir, "report.json")
    status, out, err = run_cli("compare", "-r", "system", "-r", "system+yjit", "--param", "bench=fib,greet", "--batches", "3",
      "--iterations", "3", "--warmup", "2", "--results", run, "--export-json", json, "--", root)
    assert_equal 0, status, err + out
    trials = trial_lines(run)
    assert_equal 12, trials.size
    assert(trials.all? { |t| t["status"] == "ok" }, trials.map { |t| t["reason"] }.compact.join("; "))
    trials.each do |t|
      assert_equal 2, t.dig("samples", "warmup_s").size, "WARMUP_ITRS from --warmup"
      assert_equal 3, t.dig("samples", "iterations_s").size, "MIN_BENCH_ITRS from --iterations, without a minimum time"
      assert_in_delta 3 / t.dig("samples", "iterations_s").sum, t.dig("metrics", "iterations_per_s"), 1e-9
      assert_equal(t["runtime"] == "system+yjit", t.dig("facts", "yjit_enabled"))
    end
    greet = trials.select { |t| t.dig("params", "bench") == "greet" }
    assert(greet.all? { |t| t.dig("facts", "ruby_processes") == 2 }, "use_gemfile's setup command ran a Ruby the probe saw")
    setups = Dir.glob(File.join(root, "benchmarks/greet/setup-*.txt")).map { |f| File.read(f) }
    assert_equal %w[false false false true true true], setups.sort, "the setup command's Ruby ran with the runtime's YJIT setting"

    meta = Rubyrig::Processes::TextFile.json(File.join(run, "run.json"))
    workload = meta["workloads"].fetch(File.basename(root))
    assert_equal "ruby-bench", workload["harness"]
    assert_equal({"WARMUP_ITRS" => "2", "MIN_BENCH_ITRS" => "3", "MIN_BENCH_TIME" => "0"}, workload["ruby_bench_env"])
    bundles = meta["bundles"].select { |b| b["gemfile"] == File.join(root, "benchmarks/greet/Gemfile") }
    assert_equal %w[system system+yjit], bundles.map { |b| b["runtime"] }.sort
    assert(bundles.all? { |b| b.dig("gems", "rack") })

    report = Rubyrig::Processes::TextFile.json(json)
    %w[fib greet].each do |bench|
      c = report["comparisons"].find { |x| x["params"] == {"bench" => bench} && x["metric"] == "iterations_per_s" }
      assert c, "a comparison for #{bench}"
      assert_includes Rubyrig::Analysis::Verdict::ALL, c["verdict"]
      assert_equal 3, c["n"]
    end
    assert_match(/· bench=greet\n  iterations\/s/, out)
  end

  # One file given by its path: named as ruby-bench names it, with its folder's Gemfile, ruby-bench's
  # default counts but without the 10 s minimum once --iterations is given.
  def test_one_benchmark_by_its_path
    root = suite
    run = File.join(tmpdir, "run")
    status, out, err = run_cli("compare", "-r", ruby33, "--batches", "1", "--iterations", "2",
      "--results", run, "--", File.join(root, "benchmarks/greet/benchmark.rb"))
    assert_equal 0, status, err + out
    trial = trial_lines(run).first
    assert_equal "greet", trial["workload"]
    assert_equal 15, trial.dig("samples", "warmup_s").size
    assert_equal 2, trial.dig("samples", "iterations_s").size
    assert_match(/Gem sets.*\n.*\n.*greet\/Gemfile\s+rack/, out)
  end
end
