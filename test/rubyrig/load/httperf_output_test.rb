# Tests the reading of httperf's output shared by both httperf adapters, on recorded output: the summary
# in wrk's JSON shape, errors by kind, and latency percentiles from the merged histograms.
require "test_helper"

class HttperfOutputTest < Minitest::Test
  Output = Rubyrig::Load::HttperfOutput
  RECORDED = Rubyrig::Processes::TextFile.read(File.join(RubyrigTest::ROOT, "test/fixtures/load/httperf-interrupted.log"))

  def test_summary_of_an_interrupted_run_counts_replies_over_its_own_duration
    s = Output.summary(RECORDED)
    assert_equal 5510, s["requests"], "replies, not the request still in flight at SIGINT"
    assert_in_delta 3.005e6, s["duration_us"], 1
    assert_equal 5510 * 41, s["bytes"]
    assert_in_delta 500.0, s["latency_mean_us"], 1e-9
    assert_in_delta 55_300.0, s["latency_max_us"], 1e-9
    assert_equal 0, s["errors_connect"] + s["errors_read"] + s["errors_timeout"] + s["errors_status"]
    assert_equal({0 => 5028, 1 => 106, 2 => 108}, s["histogram"].first(3).to_h)
    assert_equal 5510, s["histogram"].values.sum, "one lifetime per completed connection"
  end

  def test_errors_are_sorted_into_wrk_kinds
    text = RECORDED.sub("Reply status: 1xx=0 2xx=5510 3xx=0 4xx=0 5xx=0", "Reply status: 1xx=0 2xx=5500 3xx=0 4xx=4 5xx=6")
      .sub("Errors: total 0 client-timo 0 socket-timo 0 connrefused 0 connreset 0", "Errors: total 9 client-timo 2 socket-timo 1 connrefused 3 connreset 1")
      .sub("Errors: fd-unavail 0 addrunavail 0 ftab-full 0 other 0", "Errors: fd-unavail 0 addrunavail 1 ftab-full 0 other 1")
    s = Output.summary(text)
    assert_equal({"connect" => 4, "read" => 2, "write" => 0, "timeout" => 3, "status" => 10},
      Rubyrig::Load::Result::ERROR_KINDS.to_h { |k| [k, s["errors_#{k}"]] })
  end

  def test_a_request_that_timed_out_is_an_attempt_so_the_error_rate_stays_a_share
    text = RECORDED.sub(/^Total: connections \d+ requests \d+ replies \d+/, "Total: connections 258 requests 258 replies 97")
      .sub("Errors: total 0 client-timo 0", "Errors: total 161 client-timo 161")
    dir = Dir.mktmpdir
    result = Rubyrig::Load::Httperf.result(Output.summary(text), Struct.new(:cpu_s, :wall_s).new(0.1, 10.0), dir, "httperf")
    assert_in_delta 161.0 / 258, result.error_rate
  ensure
    FileUtils.rm_rf(dir)
  end

  def test_combined_processes_sum_counts_and_take_percentiles_of_the_merged_histogram
    a = {"requests" => 90, "duration_us" => 10e6, "bytes" => 900, "latency_mean_us" => 1000.0, "latency_max_us" => 4000.0,
         "histogram" => {0 => 80, 1 => 10}}.merge(Rubyrig::Load::Result::ERROR_KINDS.to_h { |k| ["errors_#{k}", 0] })
    b = a.merge("requests" => 10, "duration_us" => 10.2e6, "latency_mean_us" => 3000.0, "latency_max_us" => 3500.0,
      "histogram" => {3 => 10}, "errors_read" => 2)
    data = Output.combine([a, b])
    assert_equal 100, data["requests"]
    assert_in_delta 10.1e6, data["duration_us"], 1e-6
    assert_equal 2, data["errors_read"]
    assert_in_delta 1200.0, data["latency_mean_us"], 1e-9, "weighted by responses"
    assert_equal 4000.0, data["latency_max_us"]
    assert_in_delta 625.0, data["latency_p50_us"], 1e-9, "50 of 80 in the first 1 ms bin"
    assert_in_delta 2000.0, data["latency_p90_us"], 1e-9, "the 90th response ends the second bin"
    assert_in_delta 3900.0, data["latency_p99_us"], 1e-9
    result = Rubyrig::Load::Result.from_summary(data, cpu_s: 1.0, wall_s: 10.5)
    assert_in_delta 100 / 10.1, result.requests_per_s, 1e-9
    assert_in_delta 0.000625, result.latency_s["p50"], 1e-12
  end

  def test_a_percentile_never_exceeds_the_exact_maximum
    assert_in_delta 1500.0, Output.percentile_us({1 => 1}, 99.9, 1500.0), 1e-9
    assert_nil Output.percentile_us({}, 50, nil)
  end

  def test_output_without_statistics_is_a_failed_run
    assert_raises(Output::Missing) { Output.summary("httperf: connection failed\n") }
  end
end
