# Tests how a workload's `traffic:` is read (requests, sessions, an access log) and the errors that name
# the line and the fix; and what a batch gets from it: a seeded sequence in the proportions asked, and
# the endpoint each logged request belongs to.
require "test_helper"

class HttpTrafficTest < Minitest::Test
  Traffic = Rubyrig::Kinds::Http::Traffic

  def load(yaml, files = {})
    dir = tmpdir
    write(dir, "app/config.ru", "run ->(env) { [200, {}, ['x']] }\n")
    files.each { |name, text| write(dir, name, text) }
    Rubyrig::Experiment.load(write(dir, "exp.yml", "runtimes: [system]\nworkloads:\n  - app: app\n#{yaml}"))
  end

  def traffic(yaml, files = {}) = Traffic.from_options(load(yaml, files).workloads.first.options)

  def refused(yaml, files = {})
    error = assert_raises(Rubyrig::ExperimentError) { load(yaml, files) }
    error.message
  end

  MIX = <<~YAML.gsub(/^/, "    ")
    traffic:
      seed: 3
      values: {id: 1..20}
      requests:
        - {name: index, path: /posts, weight: 50}
        - {name: show, path: "/posts/{id}", weight: 30}
        - {name: new, path: /posts/new, weight: 10}
        - {name: search, path: "/search?q={q}", values: {q: [ruby, rails]}, weight: 5}
        - {name: create, method: post, path: /posts, body: "title=a", headers: {Content-Type: application/x-www-form-urlencoded}, weight: 5}
  YAML

  def test_a_mix_is_read_with_defaults_and_placeholder_values
    t = traffic(MIX)
    assert_equal "requests", t.kind
    assert_equal %w[index show new search create], t.endpoint_names
    create = t.requests.last
    assert_equal "POST", create.method
    assert_equal({"Content-Type" => "application/x-www-form-urlencoded"}, create.headers)
    assert_equal({"id" => {"from" => 1, "to" => 20}}, t.requests[1].values)
    assert_equal({}, t.requests[0].values, "only the placeholders a path uses are kept")
  end

  def test_a_batch_sequence_keeps_the_weights_and_is_the_same_for_a_round
    t = traffic(MIX)
    calls = t.calls(2)
    assert_equal Traffic::SEQUENCE_SIZE, calls.size
    assert_equal({"index" => 5000, "show" => 3000, "new" => 1000, "search" => 500, "create" => 500}, calls.map(&:name).tally)
    assert_equal calls.map(&:path), t.calls(2).map(&:path)
    refute_equal calls.map(&:path), t.calls(3).map(&:path)
    ids = calls.select { |c| c.name == "show" }.map { |c| c.path[%r{/posts/(\d+)}, 1].to_i }
    assert_equal (1..20).to_a, ids.uniq.sort
  end

  def test_every_stretch_of_a_sequence_holds_the_mix
    t = traffic(MIX)
    names = t.calls(1).map(&:name)
    shares = {"index" => 0.5, "show" => 0.3, "new" => 0.1, "search" => 0.05, "create" => 0.05}
    [0, 17, 4321, 9990].product([40, 333, 5000]).each do |from, length|
      counts = (names * 2)[from, length].tally
      shares.each { |name, share| assert_in_delta share * length, counts.fetch(name, 0), 2, "#{name} in #{length} from #{from}" }
    end
  end

  def test_logged_requests_are_attributed_by_method_and_pattern_literal_paths_first
    t = traffic(MIX)
    assert_equal "new", t.endpoint("GET", "/posts/new")
    assert_equal "show", t.endpoint("GET", "/posts/17")
    assert_equal "create", t.endpoint("POST", "/posts")
    assert_equal "index", t.endpoint("GET", "/posts")
    assert_equal "search", t.endpoint("GET", "/search?q=rails")
    assert_equal "other", t.endpoint("GET", "/search?q=java")
    assert_equal "other", t.endpoint("DELETE", "/posts")
  end

  def test_sessions_are_read_with_their_pauses
    t = traffic(<<~YAML.gsub(/^/, "    "))
      traffic:
        sessions:
          - name: writer
            weight: 1
            steps:
              - {name: login, method: POST, path: /login, body: "user=a"}
              - think_s: 0.5
              - {name: private, path: /private}
          - name: reader
            weight: 3
            steps: [{name: private, path: /private}]
    YAML
    assert t.sessions?
    assert_equal %w[login private], t.endpoint_names
    list = t.session_list(1)
    assert_equal Traffic::SESSION_TEMPLATES, list.size
    assert_equal 250, list.count { |s| s.size == 2 }
    writer = list.find { |s| s.size == 2 }
    assert_in_delta 0.5, writer.first[:think_s]
    assert_equal "POST", writer.first[:call].method
  end

  def test_an_access_log_is_replayed_in_order_and_grouped_by_endpoint
    log = <<~LOG
      10.0.0.1 - - [10/Oct/2026:13:55:36 +0000] "GET /posts/12?page=2 HTTP/1.1" 200 2326 "-" "curl/8"
      10.0.0.1 - frank [10/Oct/2026:13:55:37 +0000] "POST /posts HTTP/1.1" 302 0

      10.0.0.2 - - [10/Oct/2026:13:55:38 +0000] "GET /posts/7 HTTP/1.0" 200 99 "http://x/" "Mozilla"
    LOG
    t = traffic("    traffic: {access_log: access.log}\n", "access.log" => log)
    assert_equal "access_log", t.kind
    assert_equal ["/posts/12?page=2", "/posts", "/posts/7"], t.calls(1).map(&:path)
    assert_equal %w[get_posts_n post_posts], t.endpoint_names
    assert_equal "get_posts_n", t.endpoint("GET", "/posts/99")
    assert_equal "get_api_posts_n_json", t.endpoint("GET", "/api/posts/99.json?x=1"), "a number with a format's extension is a number too"
    assert_equal "get_posts_2026-11", t.endpoint("GET", "/posts/2026-11"), "a segment that only begins with a number is kept"
  end

  def test_a_capacity_search_runs_with_traffic
    options = load("    load_model: open\n    slo: \"p99 < 50ms\"\n    traffic:\n      requests: [{path: /}]\n").workloads.first.options
    assert_equal 5, options.dig("capacity", "step_s")
    assert_equal [{"name" => "get", "method" => "GET", "path" => "/", "values" => {}, "headers" => {}, "weight" => 1}], options.dig("traffic", "requests")
  end

  def test_errors_name_the_line_and_the_fix
    assert_match(/exp\.yml:4: traffic must give exactly one of requests:, sessions: or access_log:, got requests and sessions/,
      refused("    traffic: {requests: [{path: /}], sessions: [{name: a, steps: [{path: /}]}]}\n"))
    assert_match(/exp\.yml:6: path has the placeholder \{id\} without values; add values: \{id: 1\.\.100\}/,
      refused("    traffic:\n      requests:\n        - path: \"/posts/{id}\"\n"))
    assert_match(/exp\.yml:6: weight must be a positive number/, refused("    traffic:\n      requests:\n        - {path: /, weight: 0}\n"))
    assert_match(/exp\.yml:6: method must be one of GET, POST/, refused("    traffic:\n      requests:\n        - {path: /, method: FETCH}\n"))
    assert_match(/exp\.yml:\d+: id must be a whole-number range such as "1\.\.2000" or a list/,
      refused("    traffic:\n      values: {id: 5..1}\n      requests: [{path: \"/p/{id}\"}]\n"))
    assert_match(/unknown key 'wieght' in a request; did you mean 'weight'/, refused("    traffic:\n      requests:\n        - {path: /, wieght: 2}\n"))
    assert_match(/has the request 'a' twice/, refused("    traffic:\n      requests: [{name: a, path: /}, {name: a, path: /b}]\n"))
    assert_match(/exp\.yml:4: traffic gives different headers: in different requests, but httperf \(which runs sessions and the open loop\) sends the same headers/,
      refused("    traffic:\n      sessions:\n        - name: s\n          steps: [{path: /, headers: {A: b}}, {path: /c}]\n"))
    assert_match(/keepalive only, not close/,
      refused("    params: {connection: [keepalive, close]}\n    traffic:\n      sessions: [{name: s, steps: [{path: /}]}]\n"))
    assert_match(/traffic gives different headers: in different requests/,
      refused("    load_model: open\n    params: {rate: 10}\n    traffic:\n      requests: [{path: /, headers: {A: b}}, {path: /c}]\n"))
    assert_match(/traffic uses PATCH, which httperf \(which runs sessions and the open loop\) cannot send/,
      refused("    traffic:\n      sessions: [{name: s, steps: [{path: /p, method: PATCH}]}]\n"))
    assert_match(/traffic runs with connection: keepalive or close \(wrk\), not client-close/,
      refused("    params: {connection: client-close}\n    traffic:\n      requests: [{path: /}]\n"))
  end

  def test_an_access_log_with_a_patch_is_refused_in_the_open_loop_only
    log = "1.2.3.4 - - [x] \"PATCH /p/1 HTTP/1.1\" 200 1\n"
    assert_equal "access_log", traffic("    traffic: {access_log: access.log}\n", "access.log" => log).kind
    assert_match(/traffic uses PATCH, which httperf/,
      refused("    load_model: open\n    params: {rate: 10}\n    traffic: {access_log: access.log}\n", "access.log" => log))
  end

  def test_an_access_log_line_out_of_format_names_the_log_and_its_line
    message = refused("    traffic: {access_log: access.log}\n", "access.log" => "1.2.3.4 - - [x] \"GET / HTTP/1.1\" 200 1\nnot a log line\n")
    assert_match(/access\.log:2: not a Common or Combined Log Format line/, message)
  end
end
