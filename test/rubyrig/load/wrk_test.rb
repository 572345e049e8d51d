# Tests the wrk adapter's pure parts: the command line per connection mode and turning wrk's JSON
# summary plus its rusage into a Result (throughput counts only responses below status 400).
require "test_helper"

class WrkTest < Minitest::Test
  SUMMARY = {
    "requests" => 10_000, "duration_us" => 2_000_000, "bytes" => 790_000,
    "errors_connect" => 0, "errors_read" => 3, "errors_write" => 0, "errors_timeout" => 1, "errors_status" => 100,
    "latency_min_us" => 90, "latency_mean_us" => 800.5, "latency_stdev_us" => 300.0, "latency_max_us" => 25_000,
    "latency_p50_us" => 700, "latency_p90_us" => 1500, "latency_p99_us" => 9000, "latency_p999_us" => 20_000
  }.freeze

  def exit_with(cpu_user_s:, cpu_sys_s:, wall_s:)
    Rubyrig::Processes::Child::Exit.new(status: 0, signal: nil, wall_s: wall_s, cpu_user_s: cpu_user_s, cpu_sys_s: cpu_sys_s)
  end

  def wrk(connection)
    Rubyrig::Load::Wrk.new(binary: "/usr/bin/wrk", threads: 2, connections: 8, timeout_s: 2, connection: connection, cpus: "0")
  end

  def test_keepalive_argv_sends_no_connection_header
    argv = wrk("keepalive").argv("http://127.0.0.1:9000/", 10)
    assert_equal ["/usr/bin/wrk", "--threads", "2", "--connections", "8", "--duration", "10s", "--timeout", "2s",
      "--script", Rubyrig::Load::Wrk::SCRIPT, "http://127.0.0.1:9000/"], argv
  end

  def test_close_mode_sends_connection_close_header
    argv = wrk("close").argv("http://127.0.0.1:9000/", 10)
    assert_equal ["--header", "Connection: close"], argv[-3, 2]
  end

  def test_wrk_refuses_client_close_which_httperf_measures
    refute Rubyrig::Load::Wrk.supports?("client-close")
    assert_equal ["httperf"], Rubyrig::Load.supporting("client-close")
    assert_equal "wrk", Rubyrig::Load.for_mode("close")
    assert_raises(Rubyrig::ExperimentError) { wrk("client-close") }
  end

  def test_parse_converts_microseconds_and_counts_errors_by_kind
    result = Rubyrig::Load::Wrk.parse(SUMMARY, exit_with(cpu_user_s: 0.3, cpu_sys_s: 0.5, wall_s: 2.0))
    assert_in_delta 2.0, result.duration_s
    assert_in_delta 0.0007, result.latency_s["p50"]
    assert_in_delta 0.02, result.latency_s["p999"]
    assert_in_delta 0.025, result.latency_s["max"]
    assert_equal({"connect" => 0, "read" => 3, "write" => 0, "timeout" => 1, "status" => 100}, result.errors)
    assert_equal 104, result.error_count
    assert_in_delta 0.8, result.cpu_s
  end

  def test_throughput_counts_only_good_responses_over_the_measured_duration
    result = Rubyrig::Load::Wrk.parse(SUMMARY, exit_with(cpu_user_s: 0.3, cpu_sys_s: 0.5, wall_s: 2.0))
    assert_in_delta (10_000 - 100) / 2.0, result.requests_per_s
    assert_in_delta 104.0 / (10_000 + 3), result.error_rate
    assert_equal "connect 0, read 3, write 0, timeout 1, non-2xx/3xx 100", result.error_summary
  end

  def test_cpu_fraction_is_relative_to_the_cpus_the_generator_can_use
    result = Rubyrig::Load::Wrk.parse(SUMMARY, exit_with(cpu_user_s: 0.3, cpu_sys_s: 0.5, wall_s: 2.0))
    assert_in_delta 0.4, result.cpu_fraction(1)
    assert_in_delta 0.2, result.cpu_fraction(2)
  end

  def test_lua_report_defines_done_only
    lua = Rubyrig::Processes::TextFile.read(Rubyrig::Load::Wrk::SCRIPT)
    assert_match(/^function done\(summary, latency, requests\)/, lua)
    refute_match(/^function (request|response)\b/, lua, "a request/response hook would take wrk off its fast path")
  end
end
