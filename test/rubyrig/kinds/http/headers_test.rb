# Tests a workload's `headers:`: how it is read and refused (with the file's line and the fix), how each
# generator is told to send it (wrk's --header, httperf's --add-header in its escaped form), and how it
# combines with a traffic request's own headers (the request's wins, in any case).
require "test_helper"

class HttpHeadersTest < Minitest::Test
  Headers = Rubyrig::Kinds::Http::Headers
  Traffic = Rubyrig::Kinds::Http::Traffic

  def load(yaml)
    dir = tmpdir
    write(dir, "app/config.ru", "run ->(env) { [200, {}, ['x']] }\n")
    Rubyrig::Experiment.load(write(dir, "exp.yml", "runtimes: [system]\nworkloads:\n  - app: app\n#{yaml}")).workloads.first.options
  end

  # A wrk that is never run, so that the unit tier needs no load generator installed.
  def tools
    dir = tmpdir
    %w[wrk].to_h { |name| [name, write(dir, name, "").tap { |path| File.chmod(0o755, path) }] }
  end

  def refused(yaml) = assert_raises(Rubyrig::ExperimentError) { load(yaml) }.message

  def test_headers_are_read_as_text_and_default_to_none
    assert_nil load("")["headers"]
    options = load("    headers:\n      X-Forwarded-Proto: https\n      Accept: \"*/*\"\n")
    assert_equal({"X-Forwarded-Proto" => "https", "Accept" => "*/*"}, options["headers"])
  end

  def test_bad_headers_name_the_line_and_the_fix
    assert_match(/exp\.yml:4: headers must be a mapping of header names to values, e\.g\. headers: \{X-Forwarded-Proto: https\}/,
      refused("    headers: [X-Forwarded-Proto]\n"))
    assert_match(/exp\.yml:5: is not a header name: use letters, digits and - \(e\.g\. X-Forwarded-Proto\), got "X Forwarded"/,
      refused("    headers:\n      X Forwarded: https\n"))
    assert_match(/exp\.yml:5: X-Count must be text, e\.g\. X-Count: "5" \(quote it\), got 5/, refused("    headers:\n      X-Count: 5\n"))
    assert_match(/exp\.yml:5: X-A must be one line of text: remove the line break/, refused("    headers:\n      X-A: \"a\\r\\nEvil: 1\"\n"))
    assert_match(/exp\.yml:5: connection is set by the load generator .*; remove it from headers/, refused("    headers:\n      connection: close\n"))
    assert_match(/exp\.yml:5: Host is set by the load generator/, refused("    headers:\n      Host: example.com\n"))
  end

  def test_wrk_sends_the_headers_before_its_own_connection_header
    wrk = Rubyrig::Load::Wrk.new(binary: "/usr/bin/wrk", threads: 1, connections: 2, timeout_s: 2, connection: "close",
      headers: {"X-Forwarded-Proto" => "https", "Accept" => "a b"})
    argv = wrk.argv("http://127.0.0.1:9000/", 5)
    assert_equal ["--header", "X-Forwarded-Proto: https", "--header", "Accept: a b", "--header", "Connection: close"], argv[-7, 6]
  end

  def test_httperf_gets_each_header_ended_by_its_escape_and_a_backslash_doubled
    assert_equal ["--add-header", "X-Forwarded-Proto: https\\n", "--add-header", "X-Path: a\\\\b\\n"],
      Rubyrig::Load::Httperf.header_arguments({"X-Forwarded-Proto" => "https", "X-Path" => "a\\b"})
    closed = Rubyrig::Load::Httperf.new(binary: "/usr/bin/httperf", connections: 2, timeout_s: 2, headers: {"X-A" => "b"})
    assert_equal "X-A: b\\n", closed.argv("http://127.0.0.1:9000/").then { |a| a[a.index("--add-header") + 1] }
    open = Rubyrig::Load::HttperfOpen.new(binary: "/usr/bin/httperf", rate_per_s: 10, arrival: "poisson", timeout_s: 2, cpus: "1", headers: {"X-A" => "b"})
    assert_equal "X-A: b\\n", open.argv("http://127.0.0.1:9000/").then { |a| a[a.index("--add-header") + 1] }
    refute_includes Rubyrig::Load::Httperf.new(binary: "/usr/bin/httperf", connections: 2, timeout_s: 2).argv("http://127.0.0.1:9000/"), "--add-header"
  end

  def test_a_request_header_of_the_same_name_in_any_case_wins
    assert_equal({"X-A" => "1", "accept" => "text/html"}, Headers.merge({"X-A" => "1", "Accept" => "*/*"}, {"accept" => "text/html"}))
    assert_equal({"B" => "2"}, Headers.merge(nil, {"B" => "2"}))
  end

  def test_traffic_carries_the_workload_headers_under_its_own
    yaml = "    headers: {X-Forwarded-Proto: https, Accept: \"*/*\"}\n    traffic:\n      requests:\n" \
      "        - {name: json, path: /a, headers: {accept: application/json}}\n        - {name: page, path: /b, headers: {accept: application/json}}\n"
    traffic = Traffic.from_options(load(yaml))
    expected = {"X-Forwarded-Proto" => "https", "accept" => "application/json"}
    assert_equal [expected], traffic.calls(1).map(&:headers).uniq, "wrk's script: every call"
    assert_equal expected, traffic.common_headers, "httperf's --add-header: the same for every request"
    log = Traffic.from_options(load("    headers: {X-Forwarded-Proto: https}\n    traffic:\n      access_log: #{File.join(RubyrigTest::ROOT, "test/fixtures/traffic/access.log")}\n"))
    assert_equal [{"X-Forwarded-Proto" => "https"}], log.calls(1).map(&:headers).uniq
    assert_equal({"X-Forwarded-Proto" => "https"}, log.common_headers)
  end

  def test_the_generators_get_the_headers_on_the_command_line_or_in_the_traffic_files
    options = load("    headers: {X-Forwarded-Proto: https}\n").merge(tools)
    wrk = Rubyrig::Kinds::Http::LoadModel.generator(options, {"connection" => "keepalive", "connections" => 2}, nil)
    assert_includes wrk.argv("http://127.0.0.1:9000/", 5), "X-Forwarded-Proto: https"
    dir = tmpdir
    traffic_options = load("    headers: {X-Forwarded-Proto: https}\n    traffic:\n      requests: [{path: /a}]\n").merge(tools)
    batch = Traffic::Batch.new(Traffic.from_options(traffic_options), dir: dir, round: 1)
    script_wrk = Rubyrig::Kinds::Http::LoadModel.generator(traffic_options, {"connection" => "keepalive", "connections" => 2}, nil, traffic: batch)
    refute_includes script_wrk.argv("http://127.0.0.1:9000/", 5), "X-Forwarded-Proto: https", "the script sends it, so that a request's own header can replace it"
    assert_includes File.read(File.join(dir, "traffic.lua")), "[\"X-Forwarded-Proto\"]=\"https\""
  end
end
