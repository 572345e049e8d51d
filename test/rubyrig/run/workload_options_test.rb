# Each workload's settings are taken once: a new run fills in its kind's defaults (http load settings,
# jobs warmup and log level, ruby-bench's iteration counts, the batch deadline) and records them; a
# resume rebuilds the workloads from what run.json recorded, through JSON, whatever today's defaults
# are; a run that recorded none gets today's and one warning.
require "test_helper"
require "minitest/mock"

class WorkloadOptionsTest < Minitest::Test
  Options = Rubyrig::Run::WorkloadOptions
  Kinds = Rubyrig::Kinds

  def experiment(dir)
    write(dir, "config.ru", "run ->(_env) { [200, {}, [\"ok\"]] }\n")
    write(dir, "jobs.rb", "1\n")
    write(dir, "Gemfile", "source \"https://rubygems.org\"\n")
    yaml = "runtimes: [system]\ntimeout_s: 90\nworkloads:\n  - {app: config.ru, duration_s: 3}\n" \
      "  - {jobs: jobs.rb, gemfile: Gemfile, log_level: info}\n  - {command: [ruby, -e, '1'], timeout_s: 7}\n"
    Rubyrig::Experiment.load(write(dir, "exp.yml", yaml))
  end

  # What run.json holds after a new run: the workloads' records read back through JSON.
  def recorded_run(experiment)
    workloads = Options.effective(experiment, Kinds).workloads.to_h { |w| [w.name, {"kind" => w.kind}.merge(Options.record(w))] }
    Rubyrig::Results::RunMeta.new(JSON.parse(JSON.generate("workloads" => workloads)))
  end

  def by_kind(experiment) = experiment.workloads.to_h { |w| [w.kind, w] }

  def test_a_new_run_fills_in_each_kinds_defaults_and_the_deadline
    effective = by_kind(Options.effective(experiment(tmpdir), Kinds))
    assert_equal 3, effective["http"].options["duration_s"]
    assert_equal Kinds::Http::Options::DEFAULTS["warmup_s"], effective["http"].options["warmup_s"]
    assert_equal({"warmup_jobs" => 0, "log_level" => "info"}, effective["jobs"].options.slice("warmup_jobs", "log_level"))
    assert_equal [90, 90, 7], %w[http jobs command].map { |k| effective[k].timeout_s }
    jobs = by_kind(experiment(tmpdir))["jobs"]
    assert_equal 0, Kinds::Jobs::Kind.effective_options(jobs.with(options: {"warmup_jobs" => nil}))["warmup_jobs"], "null is not a value"
  end

  def test_a_resume_runs_the_recorded_settings_after_the_defaults_changed
    dir = tmpdir
    run = recorded_run(experiment(dir))
    Kinds::Jobs::Kind.stub(:default_options, {"warmup_jobs" => 50, "log_level" => "debug"}) do
      resumed, warning = Options.recorded(experiment(dir), run, Kinds)
      assert_nil warning
      jobs = by_kind(resumed)["jobs"]
      assert_equal [0, "info"], jobs.options.values_at("warmup_jobs", "log_level")
      assert_equal 90, jobs.timeout_s
      assert_equal by_kind(Options.effective(experiment(dir), Kinds))["http"].options, by_kind(resumed)["http"].options
    end
  end

  def test_a_run_that_recorded_no_options_resumes_with_todays_defaults_and_one_warning
    dir = tmpdir
    names = experiment(dir).workloads.map(&:name)
    run = Rubyrig::Results::RunMeta.new("workloads" => names.to_h { |n| [n, {"kind" => "x"}] })
    resumed, warning = Options.recorded(experiment(dir), run, Kinds)
    assert_equal 0, by_kind(resumed)["jobs"].options["warmup_jobs"]
    assert_equal 90, by_kind(resumed)["http"].timeout_s
    assert_equal 1, warning.lines.size
    assert_includes warning, names.join(", ")
    assert_match(/today's defaults/, warning)
  end

  def test_a_ruby_bench_file_records_the_harness_counts_it_runs_with
    dir = tmpdir
    write(dir, "harness/loader.rb", "require \"harness\"\n")
    write(dir, "benchmarks/fib.rb", "require_relative \"../harness/loader\"\nrun_benchmark(10) { }\n")
    exp = Rubyrig::Experiment.load(write(dir, "exp.yml", "runtimes: [system]\nworkloads:\n  - {script: benchmarks/fib.rb, warmup: 4}\n"))
    run = recorded_run(exp)
    Kinds::Script::Driver.stub(:ruby_bench_defaults, {"WARMUP_ITRS" => 1, "MIN_BENCH_ITRS" => 99, "MIN_BENCH_TIME" => 0}) do
      workload = Options.recorded(exp, run, Kinds).first.workloads.first
      assert_equal({"WARMUP_ITRS" => "4", "MIN_BENCH_ITRS" => "10", "MIN_BENCH_TIME" => "10"}, workload.options["ruby_bench_env"])
      assert_equal 4, workload.warmup
    end
  end
end
