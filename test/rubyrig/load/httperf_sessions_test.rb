# Tests how httperf is told to run traffic's sessions without running it: a --wsesslog file per process
# with a cookie jar and the traffic's headers, in the closed loop and at an open loop's rate, and the
# latency of sessions of several requests (the mean reply time, no percentiles).
require "test_helper"

class HttperfSessionsTest < Minitest::Test
  Sessions = Rubyrig::Load::HttperfSessions

  def wsesslog(single) = Sessions::Wsesslog.new(files: %w[/a/traffic-1.wsesslog /a/traffic-2.wsesslog], headers: {"Accept" => "text/html"}, single_requests: single)

  def value(argv, flag) = argv[argv.index(flag) + 1]

  def test_each_process_runs_its_own_file_with_a_cookie_jar_and_the_headers
    sessions = Sessions.new(binary: "/usr/bin/httperf", wsesslog: wsesslog(false), timeout_s: 2)
    assert_equal 2, sessions.connections
    argv = sessions.argv("http://127.0.0.1:9000/", "/a/traffic-2.wsesslog")
    assert_equal "1000000000,0,/a/traffic-2.wsesslog", value(argv, "--wsesslog")
    assert_includes argv, "--session-cookies"
    assert_equal "Accept: text/html\\n", value(argv, "--add-header")
    refute_includes argv, "--uri"
    refute_includes argv, "--period"
  end

  def test_the_open_loop_starts_the_sessions_at_the_rate
    open = Rubyrig::Load::HttperfOpen.new(binary: "/usr/bin/httperf", rate_per_s: 8000, arrival: "poisson", timeout_s: 2, cpus: "1-2",
      wsesslog: wsesslog(true))
    argv = open.argv("http://127.0.0.1:9000/", client: 1, clients: 2)
    assert_equal "1000000000,0,/a/traffic-2.wsesslog", value(argv, "--wsesslog")
    assert_equal "e0.00025", value(argv, "--period")
    refute_includes argv, "--num-calls"
  end

  def test_sessions_of_several_requests_report_the_mean_reply_time_weighted_by_replies
    dir = tmpdir
    logs = [write(dir, "h-1.log", "Reply time [ms]: response 1.5 transfer 0.5\n"), write(dir, "h-2.log", "Reply time [ms]: response 4.0 transfer 0.0\n")]
    latency = Sessions.per_request_latency(logs, [{"requests" => 30}, {"requests" => 10}])
    assert_in_delta 2500.0, latency["latency_mean_us"]
    assert_nil latency["latency_p99_us"]
    assert_nil latency["latency_max_us"]
  end
end
