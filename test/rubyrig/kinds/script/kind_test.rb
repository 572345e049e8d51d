# The script driver's decisions before anything runs: which harness a file is written for, how a
# ruby-bench checkout's `bench` names resolve (as ruby-bench's own discovery does), which Gemfile each
# cell gets, and the errors for settings that do not fit the file.
require "test_helper"

class ScriptDriverTest < Minitest::Test
  Form = Rubyrig::Kinds::Script::Form
  Script = Rubyrig::Kinds::Script::Kind

  # A tree laid out like ruby-bench: a single-file benchmark, one with its own folder and Gemfile, and
  # a folder of several benchmarks without benchmark.rb.
  def suite
    root = tmpdir
    write(root, "harness/loader.rb", "require \"harness\"\n")
    write(root, "benchmarks/fib.rb", "require_relative \"../harness/loader\"\nrun_benchmark(10) { }\n")
    write(root, "benchmarks/railsish/benchmark.rb", "require_relative '../../harness/loader'\nuse_gemfile\nrun_benchmark(10) { }\n")
    write(root, "benchmarks/railsish/Gemfile", "source \"https://rubygems.org\"\n")
    write(root, "benchmarks/railsish/helper/lib.rb", "1\n")
    write(root, "benchmarks/addr/join.rb", "require_relative '../../harness/loader'\nrun_benchmark(10) { }\n")
    write(root, "benchmarks/addr/equality.rb", "require_relative '../../harness/loader'\nrun_benchmark(10) { }\n")
    root
  end

  def experiment(yaml, dir)
    Rubyrig::Experiment.load(write(dir, "exp.yml", yaml))
  end

  def test_the_form_comes_from_the_file
    dir = tmpdir
    assert_equal "ruby-bench", Form.detect(write(dir, "a.rb", "require_relative '../harness/loader'\n"))
    assert_equal "ruby-bench", Form.detect(write(dir, "b.rb", "run_benchmark(5) do\nend\n"))
    assert_equal "benchmark-ips", Form.detect(write(dir, "c.rb", "require 'benchmark/ips'\nBenchmark.ips { |x| }\n"))
    assert_equal "benchmark-ips", Form.detect(write(dir, "d.rb", "Benchmark.ips_quick(:a, :b)\n"))
    assert_equal "rubyrig", Form.detect(write(dir, "e.rb", "Rubyrig.bench { 1 }\n"))
    assert_equal "rubyrig", Form.detect(write(dir, "f.rb", "puts 1\n"))
  end

  def test_names_resolve_as_ruby_bench_finds_them
    root = suite
    assert_equal File.join(root, "benchmarks/fib.rb"), Form.suite_file(root, "fib")
    assert_equal File.join(root, "benchmarks/railsish/benchmark.rb"), Form.suite_file(root, "railsish")
    assert_equal File.join(root, "benchmarks/addr/join.rb"), Form.suite_file(root, "addr-join")
    assert_nil Form.suite_file(root, "addr")
    assert_nil Form.suite_file(root, "railsish-benchmark")
    assert_nil Form.suite_file(root, "../fib")
    assert_equal %w[addr-equality addr-join fib railsish], Form.suite_names(root).keys
    assert_equal %w[fib railsish addr-join], %w[benchmarks/fib.rb benchmarks/railsish/benchmark.rb benchmarks/addr/join.rb]
      .map { |f| Form.ruby_bench_name(File.join(root, f)) }
  end

  def test_a_checkout_with_bench_names_runs_each_benchmark_with_its_own_gemfile
    root = suite
    exp = experiment("runtimes: [system]\nworkloads:\n  - script: #{root}\n    params: {bench: [fib, railsish]}\n    iterations: 3\n", tmpdir)
    w = exp.workloads.first
    assert_equal File.basename(root), w.name
    assert_equal "ruby-bench", w.options["harness"]
    assert_equal File.join(root, "benchmarks/fib.rb"), Script.file(w, {"bench" => "fib"})
    assert_equal [File.join(root, "benchmarks/railsish/Gemfile")], Script.gemfiles(w)
    assert_nil Script.gemfile(w, {"bench" => "fib"})
    assert_equal File.join(root, "benchmarks/railsish/Gemfile"), Script.gemfile(w, {"bench" => "railsish"})
    assert_equal({"WARMUP_ITRS" => "15", "MIN_BENCH_ITRS" => "3", "MIN_BENCH_TIME" => "0"}, Rubyrig::Kinds::Script::Driver.ruby_bench_env(w))
    assert_equal %w[bench:fib bench:railsish], Script.digest_paths(w).keys
  end

  def test_a_single_ruby_bench_file_is_named_as_ruby_bench_names_it_and_gets_its_folders_gemfile
    root = suite
    exp = experiment("runtimes: [system]\nworkloads:\n  - script: #{root}/benchmarks/railsish/benchmark.rb\n", tmpdir)
    w = exp.workloads.first
    assert_equal "railsish", w.name
    assert_equal File.join(root, "benchmarks/railsish/Gemfile"), w.gemfile
    assert_equal({"WARMUP_ITRS" => "15", "MIN_BENCH_ITRS" => "10", "MIN_BENCH_TIME" => "10"}, Rubyrig::Kinds::Script::Driver.ruby_bench_env(w))
    effective = w.with(options: Script.effective_options(w))
    assert_equal Rubyrig::Kinds::Script::Driver.ruby_bench_env(w), effective.options["ruby_bench_env"]
    assert_equal({"harness" => "ruby-bench", "ruby_bench_env" => Rubyrig::Kinds::Script::Driver.ruby_bench_env(w)},
      Script.run_meta(effective, server_cpus: nil, load_cpus: nil, cpus: nil))
  end

  def test_a_checkout_needs_bench_names_that_exist
    root = suite
    message = assert_raises(Rubyrig::ExperimentError) do
      experiment("runtimes: [system]\nworkloads:\n  - script: #{root}\n    params: {bench: [fib, raislish]}\n", tmpdir)
    end.message
    assert_match(/bench names 'raislish', which is neither a benchmark nor a category of .*; did you mean 'railsish'\?/, message)
  end

  # Categories come from benchmarks.yml as ruby-bench reads it: `category:` else other, ractor for
  # those marked so; all (the default) leaves out those only ruby-bench's Ractor harness runs.
  def test_categories_and_all_expand_into_benchmarks
    root = suite
    write(root, "benchmarks.yml", <<~YAML)
      fib: {category: headline, ractor: true}
      railsish: {category: headline}
      addr-join: {desc: joins}
      addr-equality: {ractor_only: true}
    YAML
    bench = ->(yaml) { experiment("runtimes: [system]\nworkloads:\n  - script: #{root}\n#{yaml}", tmpdir).workloads.first.params["bench"] }
    assert_equal %w[addr-join fib railsish], bench.call("")
    assert_equal %w[fib railsish], bench.call("    params: {bench: headline}\n")
    assert_equal %w[addr-equality fib], bench.call("    params: {bench: ractor}\n")
    assert_equal %w[addr-equality addr-join fib], bench.call("    params: {bench: [other, fib]}\n")
    w = experiment("runtimes: [system]\nworkloads:\n  - script: #{root}\n", tmpdir).workloads.first
    assert_equal({"param" => "bench", "categories" => {"addr-join" => "other", "fib" => "headline", "railsish" => "headline"}},
      Script.run_meta(w, server_cpus: nil, load_cpus: nil, cpus: nil)["suite"])
  end

  def test_a_budget_in_seconds_reaches_ruby_benchs_harness
    root = suite
    w = experiment("runtimes: [system]\nworkloads:\n  - script: #{root}\n    iterations: 3\n    warmup: 1\n    duration_s: 2\n    warmup_s: 0.5\n",
      tmpdir).workloads.first
    assert_equal({"WARMUP_ITRS" => "1", "MIN_BENCH_ITRS" => "3", "MIN_BENCH_TIME" => "0", "RUBYRIG_BENCH_TIME" => "2", "RUBYRIG_WARMUP_TIME" => "0.5"},
      Rubyrig::Kinds::Script::Driver.ruby_bench_env(w))
    assert Script.cells_fail_alone?(w)
  end

  def test_a_directory_without_benchmarks_is_not_a_script
    message = assert_raises(Rubyrig::ExperimentError) { experiment("runtimes: [system]\nworkloads:\n  - script: .\n", tmpdir) }.message
    assert_match(/\. is a directory without benchmarks\/; give the path of a Ruby file or of a ruby-bench checkout/, message)
  end

  def test_benchmark_ips_files_take_seconds_per_item_not_iterations
    dir = tmpdir
    write(dir, "ips.rb", "require 'benchmark/ips'\nBenchmark.ips { |x| x.report('a') { } }\n")
    w = experiment("runtimes: [system]\nworkloads:\n  - script: ips.rb\n    duration_s: 2\n    warmup_s: 0.5\n", dir).workloads.first
    assert_equal "benchmark-ips", w.options["harness"]
    assert_equal({"duration_s" => 2, "warmup_s" => 0.5}, w.options.slice("duration_s", "warmup_s"))
    message = assert_raises(Rubyrig::ExperimentError) { experiment("runtimes: [system]\nworkloads:\n  - script: ips.rb\n    iterations: 5\n", dir) }.message
    assert_match(/iterations does not apply to benchmark-ips files, which measure each item for a time; use duration_s and warmup_s/, message)
    message = assert_raises(Rubyrig::ExperimentError) { experiment("runtimes: [system]\nworkloads:\n  - script: ips.rb\n    params: {item: [a]}\n", dir) }.message
    assert_match(/item is the name rubyrig gives each benchmark-ips item in reports/, message)
    write(dir, "plain.rb", "Rubyrig.bench { }\n")
    message = assert_raises(Rubyrig::ExperimentError) { experiment("runtimes: [system]\nworkloads:\n  - script: plain.rb\n    duration_s: 2\n", dir) }.message
    assert_match(/duration_s applies to benchmark-ips and ruby-bench files only; this file uses the rubyrig harness/, message)
  end

  def test_the_harness_can_be_named_and_a_wrong_one_is_refused
    dir = tmpdir
    write(dir, "plain.rb", "puts 1\n")
    w = experiment("runtimes: [system]\nworkloads:\n  - script: plain.rb\n    harness: benchmark-ips\n", dir).workloads.first
    assert_equal "benchmark-ips", w.options["harness"]
    message = assert_raises(Rubyrig::ExperimentError) { experiment("runtimes: [system]\nworkloads:\n  - script: plain.rb\n    harness: yjit-bench\n", dir) }.message
    assert_match(/harness must be one of rubyrig, ruby-bench, benchmark-ips, got "yjit-bench"/, message)
  end
end
