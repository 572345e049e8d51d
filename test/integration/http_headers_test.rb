# Real Puma with wrk (closed loop, with a plain path and with traffic's script) and httperf (open loop,
# and sessions) on an app that answers 200 only to requests with X-Forwarded-Proto: https, else 403
# (test/fixtures/http-headers): a workload's headers: reach the server with every request, so no error
# is counted; without them the app refuses Puma's readiness check already and the batch fails.
require "test_helper"

class HttpHeadersIntegrationTest < Minitest::Test
  include SlowTest

  APP = File.join(RubyrigTest::ROOT, "test/fixtures/http-headers/config.ru")

  def trials(dir, workloads)
    exp = write(dir, "headers.yml", "runtimes: [system]\nworkloads:\n#{workloads}batches: 1\n")
    results = File.join(dir, "run")
    status, out, err = run_cli("run", exp, "--results", results)
    assert File.exist?(File.join(results, "run.json")), "#{status}: #{out}\n#{err}"
    Rubyrig::Results::Store.open(results).trials.sort_by { |t| t.facts["load"].to_s }
  end

  def entry(name, extra, headers: "    headers: {X-Forwarded-Proto: https}\n")
    "  - app: #{APP}\n    name: #{name}\n    duration_s: 2\n    warmup_s: 1\n    boot_timeout_s: 300\n#{headers}#{extra}"
  end

  def test_every_generator_sends_the_workload_headers
    traffic = "    traffic:\n      requests: [{name: a, path: /a, weight: 2}, {name: b, path: /b, headers: {Accept: text/plain}}]\n"
    sessions = "    traffic:\n      sessions: [{name: s, steps: [{path: /a}, {think_s: 0.01}, {path: /b}]}]\n"
    workloads = entry("wrk", "    params: {connections: 2}\n") + entry("httperf", "    load_model: open\n    params: {rate: 50}\n") +
      entry("traffic", "    params: {connections: 2}\n#{traffic}") + entry("sessions", "    params: {connections: 2}\n#{sessions}")
    found = trials(tmpdir, workloads)
    assert_equal 4, found.size
    found.each do |trial|
      seen = [trial.facts["load"], trial.status, trial.reason, trial.metrics.slice("request_count", "error_count", "non_2xx_3xx_count")].inspect
      assert trial.ok?, seen
      assert_equal 0, trial.metrics["error_count"], seen
      assert_operator trial.metrics["request_count"], :>=, 20, seen
    end
    assert_equal ["closed loop (httperf sessions, 2 connections)", "closed loop (wrk, 2 connections)", "closed loop (wrk, 2 connections)",
      "open loop (httperf, 50/s Poisson)"], found.map { |t| t.facts["load"] }
    with_traffic = found.find { |t| t.metrics.key?("endpoint.b.request_count") }
    assert_equal 0, with_traffic.metrics["endpoint.a.error_count"] + with_traffic.metrics["endpoint.b.error_count"], "the server's own log: no 403"
  end

  # A request's own header of the same name, in another case, replaces the workload's for that request only.
  def test_a_requests_own_header_wins
    traffic = "    traffic:\n      requests: [{name: a, path: /a}, {name: b, path: /b, headers: {x-forwarded-proto: http}}]\n"
    trial = trials(tmpdir, entry("traffic", "    params: {connections: 2}\n    max_error_rate: 0.9\n#{traffic}")).first
    m = trial.metrics
    seen = [trial.status, trial.reason, m.select { |k, _| k.start_with?("endpoint.") && k.end_with?("_count") }].inspect
    assert_equal 0, m["endpoint.a.error_count"], seen
    assert_operator m["endpoint.b.request_count"], :>=, 20, seen
    assert_equal m["endpoint.b.request_count"], m["endpoint.b.error_count"], "every /b sent http, the request's own value: #{seen}"
  end

  def test_without_the_headers_every_response_is_refused
    found = trials(tmpdir, entry("wrk", "    params: {connections: 2}\n", headers: "") + entry("httperf", "    load_model: open\n    params: {rate: 50}\n", headers: ""))
    assert_equal 2, found.size
    found.each do |trial|
      refute trial.ok?, [trial.facts["load"], trial.status].inspect
      assert_match(%r{the app answered GET / with status 403}, trial.reason, "the readiness check already finds the app refusing")
    end
  end
end
