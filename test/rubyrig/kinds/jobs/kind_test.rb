# Tests the jobs driver's experiment keys: built-ins, custom jobs files, options and parameter checks.
require "test_helper"

class JobsDriverTest < Minitest::Test
  def load(workload, extra = {})
    dir = @dir ||= tmpdir
    Rubyrig::Experiment.from_data({"runtimes" => ["system"], "workloads" => [workload]}.merge(extra), base_dir: dir)
  end

  def test_builtins_are_jobs_workloads_with_their_gemfile_and_file
    workload = load({"builtin" => "uptime-checks", "params" => {"jobs" => [100, 200]}}).workloads.first
    assert_equal "jobs", workload.kind
    assert_equal [100, 200], workload.params["jobs"]
    assert_equal "http,https,tcp", workload.params["checks"].first
    assert_equal true, workload.options["stubs"]
    assert_equal "sqlite", workload.options["database"]
    assert File.file?(workload.options["file"])
    assert File.file?(workload.gemfile)
    assert_equal "jobs_per_s", Rubyrig::Kinds.fetch("jobs").primary_metrics.first
  end

  def test_a_custom_jobs_file_needs_a_gemfile
    @dir = tmpdir
    write(@dir, "jobs.rb", "")
    error = assert_raises(Rubyrig::ExperimentError) { load({"jobs" => "jobs.rb"}) }
    assert_match(/needs `gemfile:` with sidekiq/, error.message)
    write(@dir, "Gemfile", "gem 'sidekiq'\n")
    workload = load({"jobs" => "jobs.rb", "gemfile" => "Gemfile", "redis" => "unix", "log_level" => "info"}).workloads.first
    assert_equal File.join(@dir, "jobs.rb"), workload.target
    assert_equal "jobs.rb", workload.name
    assert_equal({"redis" => "unix", "log_level" => "info"}, workload.options)
  end

  def test_a_missing_jobs_file_is_named
    error = assert_raises(Rubyrig::ExperimentError) { load({"jobs" => "nope.rb", "gemfile" => "Gemfile"}) }
    assert_match(/nope.rb does not exist/, error.message)
  end

  def test_options_and_parameters_are_checked
    cases = {
      {"database" => "mysql://x"} => /database must be sqlite or a postgres/,
      {"redis" => "tcp"} => /redis can only be unix: redis-server listens on a unix socket in a private directory, never on TCP/,
      {"log_level" => "loud"} => /log_level must be one of/,
      {"stubs" => "yes"} => /stubs must be true or false/,
      {"warmup_jobs" => -1} => /warmup_jobs must be a whole number of jobs, 0 or more/,
      {"warmup_jobs" => "many"} => /warmup_jobs must be a whole number/,
      {"params" => {"jobs" => [100, 0]}} => /jobs must be a positive integer/,
      {"params" => {"concurrency" => "ten"}} => /concurrency must be a positive integer/,
      {"databse" => "sqlite"} => /did you mean 'database'/
    }
    cases.each do |extra, message|
      error = assert_raises(Rubyrig::ExperimentError) { load({"builtin" => "sidekiq-noop"}.merge(extra)) }
      assert_match message, error.message
    end
  end

  def test_warmup_jobs_is_an_option_not_a_parameter
    workload = load({"builtin" => "sidekiq-noop", "warmup_jobs" => 500}).workloads.first
    assert_equal 500, workload.options["warmup_jobs"]
    refute workload.params.key?("warmup_jobs"), "the warmup share is not a cell of the matrix"
  end

  def test_a_postgres_url_replaces_sqlite
    workload = load({"builtin" => "uptime-checks", "database" => "postgres://me@localhost/checks"}).workloads.first
    assert_equal "postgres://me@localhost/checks", workload.options["database"]
  end

  def test_percentile_metrics_name_their_unit
    m = Rubyrig::Kinds::Jobs::Driver.percentile_metrics("check_latency", [0.3, 0.1, 0.2])
    assert_equal %w[check_latency_p50_s check_latency_p90_s check_latency_p99_s], m.keys
    assert_in_delta 0.2, m["check_latency_p50_s"], 1e-12
    assert_equal({}, Rubyrig::Kinds::Jobs::Driver.percentile_metrics("x", []))
  end
end
