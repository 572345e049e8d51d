# Tests how http workload entries are read: defaults, the app path and its gem set, and the errors
# that must name the line and the fix (uneven connections, client-close, unknown parameters, no wrk).
require "test_helper"

class HttpOptionsTest < Minitest::Test
  def experiment(dir, yaml)
    Rubyrig::Experiment.load(write(dir, "exp.yml", yaml))
  end

  # A PATH of executables that are never run, so that the unit tier needs no tool installed: the
  # lookup finds these names and only these.
  def tools(*names)
    dir = tmpdir
    names.each { |name| File.chmod(0o755, write(dir, name, "")) }
    dir
  end

  def test_builtin_rack_hello_is_an_http_workload_with_defaults
    exp = experiment(tmpdir, "runtimes: [system]\nworkloads: [builtin:rack-hello]\n")
    workload = exp.workloads.first
    assert_equal "http", workload.kind
    assert_equal({"processes" => [1], "threads" => [1], "connection" => ["keepalive"], "connections" => [8]}, workload.params)
    assert_equal 10, workload.options["duration_s"]
    assert_equal 5, workload.options["warmup_s"]
    assert_in_delta 0.01, workload.options["max_error_rate"]
    assert_equal File.join(Rubyrig::Experiment::Builtins::DIR, "rack-hello", "config.ru"), workload.options["rackup"]
    assert_equal File.join(Rubyrig::Experiment::Builtins::DIR, "rack-hello", "Gemfile"), workload.gemfile
    assert_equal %w[capacity_per_s requests_per_s], Rubyrig::Kinds.fetch("http").primary_metrics
  end

  def test_a_builtin_brings_its_traffic_unless_the_entry_gives_traffic_or_a_path
    default = experiment(tmpdir, "runtimes: [system]\nworkloads: [builtin:rails-blog]\n").workloads.first.options["traffic"]
    names = default.fetch("requests").map { |r| r["name"] }
    assert_equal %w[index show api static create update login], names
    assert_equal 100, default.fetch("requests").sum { |r| r["weight"] }
    assert_nil experiment(tmpdir, "runtimes: [system]\nworkloads:\n  - builtin: rails-blog\n    path: /posts/7\n").workloads.first.options["traffic"]
    own = experiment(tmpdir, "runtimes: [system]\nworkloads:\n  - builtin: rails-blog\n    traffic: {requests: [{path: /blog.css}]}\n")
    assert_equal ["/blog.css"], own.workloads.first.options["traffic"].fetch("requests").map { |r| r["path"] }
    assert_nil experiment(tmpdir, "runtimes: [system]\nworkloads: [builtin:rails-hello]\n").workloads.first.options["traffic"]
  end

  def test_a_builtin_takes_the_open_loops_rate_besides_its_declared_parameters
    yaml = "runtimes: [system]\nworkloads:\n  - builtin: rails-blog\n    load_model: open\n    params: {rate: [20, 40]}\n"
    workload = experiment(tmpdir, yaml).workloads.first
    assert_equal [20, 40], workload.params["rate"]
    assert_equal "open", workload.options["load_model"]
    e = assert_raises(Rubyrig::ExperimentError) { experiment(tmpdir, "runtimes: [system]\nworkloads:\n  - builtin: rails-blog\n    params: {rat: 20}\n") }
    assert_match(/rat is not a parameter of builtin:rails-blog; did you mean 'rate'\?/, e.message)
  end

  def test_a_builtins_traffic_that_cannot_run_names_its_workload_yml
    e = assert_raises(Rubyrig::ExperimentError) do
      experiment(tmpdir, "runtimes: [system]\nworkloads:\n  - builtin: rails-blog\n    params: {connection: client-close}\n")
    end
    assert_match(%r{rails-blog/workload\.yml:\d+: traffic runs with connection: keepalive or close}, e.message)
  end

  def test_app_key_takes_a_config_ru_and_defaults_to_the_rack_gem_set
    dir = tmpdir
    write(dir, "app/config.ru", "run ->(env) { [200, {}, ['x']] }\n")
    exp = experiment(dir, "runtimes: [system]\nworkloads:\n  - app: app\n    params: {threads: [1, 2]}\n")
    workload = exp.workloads.first
    assert_equal File.join(dir, "app", "config.ru"), workload.target
    assert_equal Rubyrig::Experiment::Builtins.fetch("rack-hello").gemfile, workload.gemfile
    assert_equal "rack", Rubyrig::Kinds::Http::Kind.framework(workload.target)
  end

  def test_an_app_with_its_own_gemfile_uses_it
    dir = tmpdir
    write(dir, "rails/config.ru", "run Rails.application\n")
    write(dir, "rails/config/application.rb", "\n")
    write(dir, "rails/Gemfile", "gem 'puma'\n")
    workload = experiment(dir, "runtimes: [system]\nworkloads: [{app: rails}]\n").workloads.first
    assert_equal File.join(dir, "rails", "Gemfile"), workload.gemfile
    assert_equal "rails", Rubyrig::Kinds::Http::Kind.framework(workload.target)
  end

  def test_missing_app_names_the_line
    error = assert_raises(Rubyrig::ExperimentError) { experiment(tmpdir, "runtimes: [system]\nworkloads:\n  - app: nope.ru\n") }
    assert_match(/exp\.yml:3: .*nope\.ru: no such config\.ru/, error.message)
  end

  def test_connections_must_divide_by_load_threads
    yaml = "runtimes: [system]\nworkloads:\n  - builtin: rack-hello\n    load_threads: 4\n    params:\n      connections: [8, 10]\n"
    error = assert_raises(Rubyrig::ExperimentError) { experiment(tmpdir, yaml) }
    assert_match(/exp\.yml:6: connections 10 is not a multiple of load_threads 4: wrk would leave 2 connection\(s\) unused/, error.message)
  end

  def test_client_close_is_a_mode_measured_by_httperf
    yaml = "runtimes: [system]\nworkloads:\n  - builtin: rack-hello\n    params:\n      connection: [keepalive, client-close]\n    httperf: /opt/httperf\n"
    workload = experiment(tmpdir, yaml).workloads.first
    assert_equal %w[keepalive client-close], workload.params["connection"]
    assert_equal "/opt/httperf", workload.options["httperf"]
    assert_equal %w[wrk httperf], Rubyrig::Kinds::Http::Kind.generators(workload)
    error = assert_raises(Rubyrig::ToolMissing) { Rubyrig::Kinds::Http::Kind.preflight(workload, nil, path: tools("wrk", "flock")) }
    assert_match(%r{/opt/httperf is not installed or not executable: install it \(Debian/Ubuntu: apt-get install httperf\)}, error.message)
  end

  def test_unknown_connection_mode_and_unknown_parameter
    error = assert_raises(Rubyrig::ExperimentError) do
      experiment(tmpdir, "runtimes: [system]\nworkloads:\n  - builtin: rack-hello\n    params: {connection: pipelined}\n")
    end
    assert_match(/'pipelined' is not a connection mode; use keepalive, close, client-close/, error.message)
    dir = tmpdir
    write(dir, "config.ru", "run ->(env) { [200, {}, ['x']] }\n")
    error = assert_raises(Rubyrig::ExperimentError) do
      experiment(dir, "runtimes: [system]\nworkloads:\n  - app: config.ru\n    params: {thread: 2}\n")
    end
    assert_match(/thread is not a parameter of an http workload; did you mean 'threads'\?/, error.message)
  end

  def test_whole_seconds_are_required_by_wrk
    error = assert_raises(Rubyrig::ExperimentError) do
      experiment(tmpdir, "runtimes: [system]\nworkloads:\n  - builtin: rack-hello\n    duration_s: 1.5\n")
    end
    assert_match(/exp\.yml:4: duration_s must be a whole positive number \(wrk takes whole seconds\)/, error.message)
  end

  def test_a_missing_wrk_is_a_one_line_error_naming_the_fix
    workload = experiment(tmpdir, "runtimes: [system]\nworkloads:\n  - builtin: rack-hello\n    wrk: no-such-wrk-binary\n").workloads.first
    error = assert_raises(Rubyrig::ToolMissing) { Rubyrig::Kinds::Http::Kind.preflight(workload, nil, path: tools("no-such-wrk-binary-here")) }
    assert_equal "no-such-wrk-binary is not installed or not executable: install it (Debian/Ubuntu: apt-get install wrk) " \
      "or give its path with `wrk: /path/to/wrk`", error.message
  end

  def test_cpu_lists_are_checked
    error = assert_raises(Rubyrig::ExperimentError) do
      experiment(tmpdir, "runtimes: [system]\nworkloads:\n  - builtin: rack-hello\n    server_cpus: one\n")
    end
    assert_match(/exp\.yml:4: server_cpus needs a CPU list such as 1, 0-1 or 0,2-3, got "one"/, error.message)
  end

  def app_dir
    dir = tmpdir
    write(dir, "config.ru", "run ->(env) { [200, {}, ['x']] }\n")
    dir
  end

  def test_an_open_loop_offers_params_rate_with_poisson_arrivals_by_default
    yaml = "runtimes: [system]\nworkloads:\n  - app: config.ru\n    load_model: open\n    params: {rate: [50, 100]}\n"
    workload = experiment(app_dir, yaml).workloads.first
    assert_equal [50, 100], workload.params["rate"]
    assert_equal "open", workload.options["load_model"]
    assert_equal "poisson", workload.options["arrival"]
    assert_equal %w[httperf], Rubyrig::Kinds::Http::Kind.generators(workload), "the open loop needs httperf, not wrk"
    model = Rubyrig::Kinds::Http::LoadModel
    assert_equal "open loop (httperf, 50/s Poisson)", model.describe(workload.options, {"rate" => 50})
    assert_equal "open loop (httperf, 12.5/s constant)", model.describe(workload.options.merge("arrival" => "constant"), {"rate" => 12.5})
    assert_equal "closed loop (wrk, 8 connections)", model.describe({"load_model" => "closed"}, {"connection" => "keepalive", "connections" => 8})
    assert_equal "closed loop (httperf, 1 connection, client-close)", model.describe({}, {"connection" => "client-close", "connections" => 1})
  end

  def test_a_built_in_app_takes_an_offered_rate_too
    yaml = "runtimes: [system]\nworkloads:\n  - builtin: rack-hello\n    load_model: open\n    params: {rate: 50}\n"
    assert_equal [50], experiment(tmpdir, yaml).workloads.first.params["rate"]
  end

  def test_a_load_model_that_does_not_fit_its_keys_is_one_line_naming_the_fix
    cases = {
      "    params: {rate: 50}\n" => /exp\.yml:4: rate is an offered rate, which a closed loop does not have: add load_model: open, or remove rate/,
      "    arrival: constant\n" => /exp\.yml:4: arrival applies to an open loop: add load_model: open, or remove arrival/,
      "    load_model: open\n" => /exp\.yml:4: load_model open needs params.rate, the offered requests\/s/,
      "    load_model: opened\n" => /exp\.yml:4: load_model "opened" is not a load model; use closed .* or open/,
      "    load_model: open\n    arrival: bursty\n    params: {rate: 5}\n" => /exp\.yml:5: arrival "bursty" is not an arrival process; use poisson or constant/,
      "    load_model: open\n    params: {rate: [10, -1]}\n" => /exp\.yml:5: rate must be a positive number of requests\/s or a list of them/,
      "    load_model: open\n    params: {rate: 10, connections: 4}\n" => /exp\.yml:5: connections belongs to the closed loop; .*remove connections or use load_model: closed/
    }
    cases.each do |keys, message|
      error = assert_raises(Rubyrig::ExperimentError, keys) { experiment(app_dir, "runtimes: [system]\nworkloads:\n  - app: config.ru\n#{keys}") }
      assert_match message, error.message
      assert_equal 1, error.message.lines.size
    end
  end
end
