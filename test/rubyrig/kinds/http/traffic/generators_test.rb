# Tests the files load generators read for a batch with traffic (wrk's Lua script, httperf's --wsesslog
# file) and how Puma's request log becomes per-endpoint metrics.
require "test_helper"

class HttpTrafficGeneratorsTest < Minitest::Test
  Traffic = Rubyrig::Kinds::Http::Traffic

  def call(path, method: "GET", headers: {}, body: nil, name: "x") = Traffic::Call.new(name: name, method: method, path: path, headers: headers, body: body)

  def test_the_wrk_script_keeps_rubyrigs_report_and_escapes_every_byte_it_must
    text = Traffic::WrkScript.text([call("/a\"b", headers: {"X-A" => "1\\2"}, body: "x\ny"), call("/c")], 2)
    assert_includes text, "function done(summary, latency, requests)"
    assert_includes text, '{"GET","/a\\034b",{["X-A"]="1\\0922"},"x\\010y"}'
    assert_includes text, '{"GET","/c",{},nil}'
    assert_includes text, "stride = 1"
    assert_includes text, "function request()"
  end

  def test_the_wsesslog_file_has_one_paragraph_per_session_with_methods_bodies_and_pauses
    sessions = [
      [{call: call("/login", method: "POST", body: "u=a \"b\""), think_s: 0.5}, {call: call("/private"), think_s: 0}],
      [{call: call("/p/1"), think_s: 0}]
    ]
    text = Traffic::Wsesslog.text(sessions)
    assert_equal "# Written by rubyrig for one batch: one session per paragraph.\n" \
      "/login method=POST contents=\"u=a \\\"b\\\"\" think=0.500\n/private\n\n/p/1\n", text
    assert_raises(Traffic::Wsesslog::Unsendable) { Traffic::Wsesslog.text([[{call: call("/a b"), think_s: 0}]]) }
  end

  def test_pumas_request_log_becomes_per_endpoint_metrics
    traffic = Traffic.new({"requests" => [{"name" => "index", "method" => "GET", "path" => "/"},
      {"name" => "show", "method" => "GET", "path" => "/p/{id}", "values" => {"id" => {"from" => 1, "to" => 9}}}]})
    log = <<~LOG
      Puma starting in single mode...
      127.0.0.1 - - [28/Nov/2026:18:00:00 +0000] "GET / HTTP/1.1" 200 - 0.0020
      127.0.0.1 - - [28/Nov/2026:18:00:00 +0000] "GET /p/3 HTTP/1.1" 200 12 0.0100
      127.0.0.1 - - [28/Nov/2026:18:00:00 +0000] "GET /p/4 HTTP/1.1" 500 12 0.0300
      127.0.0.1 - - [28/Nov/2026:18:00:00 +0000] "GET /nope HTTP/1.1" 404 9 0.0001
    LOG
    entries = Traffic::RequestLog.parse(log)
    assert_equal 4, entries.size
    m = Traffic::RequestLog.metrics(entries, traffic, measured_s: 2.0)
    assert_equal 2, m["endpoint.show.request_count"]
    assert_in_delta 0.5, m["endpoint.show.share"]
    assert_equal 1, m["endpoint.show.error_count"]
    assert_in_delta 1.0, m["endpoint.show.requests_per_s"]
    assert_in_delta 0.02, m["endpoint.show.service_mean_s"]
    assert_in_delta 0.01, m["endpoint.show.service_p50_s"]
    assert_in_delta 0.03, m["endpoint.show.service_p99_s"]
    assert_equal 1, m["endpoint.other.request_count"]
    assert_equal 1, m["endpoint.other.error_count"]
    assert_in_delta 0.010525, m["service_mean_s"]
  end

  def test_an_endpoint_without_logged_requests_counts_zero
    traffic = Traffic.new({"requests" => [{"name" => "index", "method" => "GET", "path" => "/"}]})
    m = Traffic::RequestLog.metrics([], traffic, measured_s: 1.0)
    assert_equal({"endpoint.index.request_count" => 0, "endpoint.index.error_count" => 0, "endpoint.index.requests_per_s" => 0.0}, m)
  end
end
