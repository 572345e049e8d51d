# Real Puma and wrk, things going wrong: a port already in use, an app that fails to boot (its log must
# stay in the run's artifacts) and a missing wrk binary each give one clear line; an app that answers
# some requests with 500 is "ok with errors" below max_error_rate and fails the batch above it.
require "test_helper"
require "socket"
require "open3"

class HttpErrorsTest < Minitest::Test
  include SlowTest

  def run_experiment(dir, workload_yaml)
    exp = write(dir, "exp.yml", "runtimes: [system]\nworkloads:\n#{workload_yaml}batches: 1\n")
    results = File.join(dir, "run")
    status, out, err = run_cli("run", exp, "--results", results)
    [status, out + err, Rubyrig::Results::Store.open(results)]
  end

  def test_a_port_already_in_use_fails_the_batch_with_the_fix
    dir = tmpdir
    blocker = TCPServer.new("127.0.0.1", 0)
    port = blocker.addr[1]
    status, output, store = run_experiment(dir, "  - builtin: rack-hello\n    port: #{port}\n    duration_s: 1\n    warmup_s: 0\n")
    assert_equal 1, status
    trial = store.trials.first
    assert_equal "failed", trial.status
    assert_equal "port #{port} on 127.0.0.1 is already in use by another program: stop it, or drop `port:` so that rubyrig picks a free port", trial.reason
    assert_includes output, trial.reason
  ensure
    blocker&.close
  end

  def test_a_server_that_fails_to_boot_keeps_its_log
    dir = tmpdir
    write(dir, "broken/config.ru", "run(lambda { |env| [200, {}, [\"hi\"]] }\n")
    status, output, store = run_experiment(dir, "  - app: broken\n    duration_s: 1\n    warmup_s: 0\n")
    assert_equal 1, status
    trial = store.trials.first
    assert_equal "failed", trial.status
    refute_includes trial.reason, "\n"
    assert_match(/\APuma exited while booting \(exited with status 1\): .*SyntaxError.*; its log is kept in \S+server-stderr\.log\z/, trial.reason)
    log = File.join(store.artifacts_dir(trial.batch_id), "server-stderr.log")
    assert_includes trial.reason, log
    assert_match(/config\.ru:1: syntax error/, Rubyrig::Processes::TextFile.read(log))
    assert_includes trial.artifacts, "server-stderr.log"
    assert_includes output, "Puma exited while booting"
  end

  def test_an_app_that_redirects_is_not_measured
    dir = tmpdir
    write(dir, "ssl/config.ru", "run(lambda { |env| [301, {\"location\" => \"https://localhost/\"}, []] })\n")
    status, _, store = run_experiment(dir, "  - app: ssl\n    duration_s: 1\n    warmup_s: 0\n")
    assert_equal 1, status
    assert_match(/\Athe app answered GET \/ with status 301, a redirect that wrk would measure instead of the app: give a path that answers 2xx with `path:`/,
      store.trials.first.reason)
  end

  def test_errors_above_the_threshold_fail_the_batch_and_below_it_mark_ok_with_errors
    dir = tmpdir
    write(dir, "flaky/config.ru", <<~RUBY)
      counter = 0
      run(lambda do |env|
        counter += 1
        status = (counter % 50).zero? ? 500 : 200
        [status, {"content-type" => "text/plain"}, ["x"]]
      end)
    RUBY
    status, _, store = run_experiment(dir, "  - app: flaky\n    duration_s: 1\n    warmup_s: 0\n    max_error_rate: 0.05\n")
    assert_equal 0, status
    trial = store.trials.first
    assert_equal "ok_with_errors", trial.status
    assert_operator trial.metrics["non_2xx_3xx_count"], :>, 0
    assert_in_delta 0.02, trial.metrics["error_rate"], 0.005
    assert_in_delta (trial.metrics["request_count"] - trial.metrics["non_2xx_3xx_count"]) / trial.metrics["measured_s"], trial.metrics["requests_per_s"], 1e-6
    assert_match(/errors in \d+ responses \(connect 0, read 0, write 0, timeout 0, non-2xx\/3xx \d+\)/, trial.warnings.first)

    status, _, store = run_experiment(tmpdir.tap { |d| FileUtils.cp_r(File.join(dir, "flaky"), d) },
      "  - app: flaky\n    duration_s: 1\n    warmup_s: 0\n    max_error_rate: 0.01\n")
    assert_equal 1, status
    assert_match(/\Aerror rate [12]\.\d\d% is above max_error_rate 1\.00% \(connect 0, read 0, write 0, timeout 0, non-2xx\/3xx \d+\)\z/, store.trials.first.reason)
  end

  def test_a_missing_wrk_is_one_line_before_anything_runs
    dir = tmpdir
    bin = File.join(dir, "bin")
    FileUtils.mkdir_p(bin)
    File.symlink(RbConfig.ruby, File.join(bin, "ruby"))
    exp = write(dir, "exp.yml", "runtimes: [system]\nworkloads: [builtin:rack-hello]\n")
    env = ENV.to_h.merge("PATH" => bin, "RUBYRIG_CACHE_DIR" => cache_dir)
    out, err, status = Open3.capture3(env, RbConfig.ruby, RubyrigTest::EXE, "run", exp, "--results", File.join(dir, "run"))
    assert_equal 1, status.exitstatus, out
    assert_equal "rubyrig: error: wrk is not installed or not executable: install it (Debian/Ubuntu: apt-get install wrk) " \
      "or give its path with `wrk: /path/to/wrk`\n", err
    refute File.exist?(File.join(dir, "run")), "nothing is started without wrk"
  end
end
