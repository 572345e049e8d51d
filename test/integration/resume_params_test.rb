# Parameters and workload options have one truth at run time: the plan records each cell's effective
# parameters and run.json each workload's effective options (its kind's defaults merged in), and every
# batch runs exactly those, so a run resumed after a default changed still executes what its run.json
# claims.
require "test_helper"
require "minitest/mock"

class ResumeParamsTest < Minitest::Test
  include SlowTest

  KIND = Rubyrig::Kinds::Command::Kind

  def test_a_resumed_run_executes_the_parameters_run_json_recorded_after_a_default_changed
    run = File.join(tmpdir, "run")
    KIND.stub(:default_params, {"n" => 3}) do
      status, _, err = run_cli("compare", "-r", "system", "--batches", "3", "--seed", "4", "--results", run, "--",
        "ruby", "-e", "print ARGV[0]", "{n}")
      assert_equal 0, status, err
    end
    trials = File.join(run, "trials.jsonl")
    lines = File.readlines(trials)
    File.write(trials, lines.first(1).join)
    resumed = lines.drop(1).map { |line| JSON.parse(line)["batch_id"] }
    resumed.each { |id| FileUtils.rm_rf(File.join(run, "artifacts", id)) }

    KIND.stub(:default_params, {"n" => 5}) do
      assert_equal({"n" => 5}, KIND.effective_params({}), "today's default differs from the recorded one")
      status, _, err = run_cli("run", "--resume", run)
      assert_equal 0, status, err
    end

    meta = Rubyrig::Processes::TextFile.json(File.join(run, "run.json"))
    assert_equal [{"n" => 3}], meta.dig("plan", "cells").map { |c| c["effective_params"] }
    assert_equal 3, File.readlines(trials).size
    resumed.each do |id|
      printed = File.read(File.join(run, "artifacts", id, "stdout.log"))
      assert_equal "3", printed, "batch #{id} was resumed with today's default instead of run.json's"
    end
  end

  # The command kind's option `chdir` stands in for any option default (an http duration, a jobs warmup,
  # ruby-bench's iteration counts): every kind's defaults go through Contract#effective_options.
  def test_a_resumed_run_executes_the_options_run_json_recorded_after_a_default_changed
    run = File.join(tmpdir, "run")
    before, after = %w[before after].map { |name| File.join(tmpdir, name).tap { |dir| FileUtils.mkdir_p(dir) } }
    KIND.stub(:default_options, {"chdir" => before}) do
      status, _, err = run_cli("compare", "-r", "system", "--batches", "3", "--seed", "4", "--results", run, "--",
        "ruby", "-e", "print Dir.pwd")
      assert_equal 0, status, err
    end
    resumed = cut_after_first_trial(run)

    KIND.stub(:default_options, {"chdir" => after}) do
      status, _, err = run_cli("run", "--resume", run)
      assert_equal 0, status, err
      refute_match(/today's defaults/, err, "a run that recorded its options resumes without a warning")
    end

    meta = Rubyrig::Processes::TextFile.json(File.join(run, "run.json"))
    assert_equal({"chdir" => before}, meta.dig("workloads", meta["workloads"].keys.first, "options"))
    assert_equal 3, File.readlines(File.join(run, "trials.jsonl")).size
    resumed.each do |id|
      printed = File.read(File.join(run, "artifacts", id, "stdout.log"))
      assert_equal File.realpath(before), printed, "batch #{id} was resumed with today's default option instead of run.json's"
    end
  end

  # A default that was applied when each batch started: ruby-bench's iteration counts.
  def test_a_resumed_ruby_bench_file_runs_the_iteration_counts_run_json_recorded
    root = tmpdir
    write(root, "harness/loader.rb", "require \"harness\"\n")
    file = write(root, "benchmarks/fib.rb", <<~RUBY)
      require_relative "../harness/loader"
      def fib(n) = (n < 2) ? n : fib(n - 1) + fib(n - 2)
      run_benchmark(10) { fib(12) }
    RUBY
    run = File.join(tmpdir, "run")
    driver = Rubyrig::Kinds::Script::Driver
    counts = ->(itrs) { {"WARMUP_ITRS" => 1, "MIN_BENCH_ITRS" => itrs, "MIN_BENCH_TIME" => 0} }
    driver.stub(:ruby_bench_defaults, counts.call(2)) do
      status, _, err = run_cli("compare", "-r", "system", "--batches", "3", "--seed", "4", "--results", run, "--", file)
      assert_equal 0, status, err
    end
    resumed = cut_after_first_trial(run)

    driver.stub(:ruby_bench_defaults, counts.call(4)) do
      status, _, err = run_cli("run", "--resume", run)
      assert_equal 0, status, err
    end

    trials = trial_lines(run)
    assert_equal 3, trials.size
    trials.select { |t| resumed.include?(t["batch_id"]) }.each do |t|
      assert_equal "ok", t["status"], t["reason"]
      assert_equal 2, t.dig("samples", "iterations_s").size, "batch #{t["batch_id"]} ran today's MIN_BENCH_ITRS instead of run.json's"
    end
  end

  def test_a_run_that_recorded_no_options_resumes_with_todays_defaults_and_says_so_in_one_line
    run = File.join(tmpdir, "run")
    status, _, err = run_cli("compare", "-r", "system", "--batches", "2", "--seed", "4", "--results", run, "--", "ruby", "-e", "1")
    assert_equal 0, status, err
    cut_after_first_trial(run)
    path = File.join(run, "run.json")
    meta = Rubyrig::Processes::TextFile.json(path)
    meta["workloads"].each_value { |entry| entry.delete("options") }
    File.write(path, JSON.generate(meta))

    status, _, err = run_cli("run", "--resume", run)
    assert_equal 0, status, err
    warnings = err.lines.grep(/records no options/)
    assert_equal 1, warnings.size, err
    assert_match(/today's defaults/, warnings.first)
    assert_equal 2, File.readlines(File.join(run, "trials.jsonl")).size
  end

  private

  # Keeps the first trial and removes the others with their artifacts; the ids of the removed batches.
  def cut_after_first_trial(run)
    trials = File.join(run, "trials.jsonl")
    lines = File.readlines(trials)
    File.write(trials, lines.first(1).join)
    lines.drop(1).map { |line| JSON.parse(line)["batch_id"] }.each { |id| FileUtils.rm_rf(File.join(run, "artifacts", id)) }
  end
end
