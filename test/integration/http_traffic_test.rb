# Real Puma and wrk on a small Rack app (test/fixtures/traffic): a weighted mix of six endpoints is served
# in the proportions asked, by the server's own count (Puma's request log), each within 2 percentage
# points; an access log replays with its own mix; the generated Lua script is kept with the batch; and
# every batch records per-endpoint metrics beside its totals. The proportions hold by construction (the
# script cycles through a sequence whose every stretch has them), whatever the host's speed; below 250
# requests in a batch (a very busy host) the bound that construction gives is wider than 2 points.
require "test_helper"

class HttpTrafficMixTest < Minitest::Test
  include SlowTest

  APP = File.expand_path("../fixtures/traffic", __dir__)
  WEIGHTS = {"index" => 30, "show" => 25, "search" => 15, "api" => 15, "create" => 10, "robots" => 5}.freeze

  def run_experiment(traffic_yaml, batches: 2, options: "")
    dir = tmpdir
    FileUtils.cp(File.join(APP, "access.log"), dir)
    exp = write(dir, "traffic.yml", <<~YAML)
      runtimes: [system]
      workloads:
        - app: #{APP}/config.ru
          name: traffic
          params: {connections: 4, threads: 2}
          duration_s: 2
          warmup_s: 1
      #{(options + traffic_yaml).gsub(/^/, "    ")}
      batches: #{batches}
      seed: 5
    YAML
    results = File.join(dir, "run")
    status, out, err = run_cli("run", exp, "--results", results)
    assert_equal 0, status, "#{out}\n#{err}"
    store = Rubyrig::Results::Store.open(results)
    store.trials.each { |t| assert t.ok?, [t.status, t.reason].inspect }
    [store, results]
  end

  def test_a_weighted_mix_is_served_in_the_proportions_asked
    store, results = run_experiment(<<~YAML)
      traffic:
        values: {id: 1..500}
        requests:
          - {name: index, path: /posts, weight: 30}
          - {name: show, path: "/posts/{id}", weight: 25}
          - {name: search, path: "/search?q={q}", values: {q: [ruby, rails, puma]}, weight: 15}
          - {name: api, path: "/api/posts/{id}", headers: {Accept: application/json}, weight: 15}
          - {name: create, method: POST, path: /posts, body: "title=hello&body=world", weight: 10}
          - {name: robots, path: /robots.txt, weight: 5}
    YAML
    total = WEIGHTS.values.sum.to_f
    store.trials.each do |trial|
      m = trial.metrics
      logged = m.fetch("logged_request_count")
      assert_operator logged, :>, 50, "too few requests to judge a mix"
      # By construction each endpoint's count is within one of its share of the requests sent, and up to
      # one per connection (4) may be sent but not yet answered: 2 points from 250 requests on.
      tolerance = [0.02, 5.0 / logged].max
      WEIGHTS.each do |name, weight|
        share = m.fetch("endpoint.#{name}.share")
        assert_in_delta weight / total, share, tolerance, "#{name}: served #{(share * 100).round(1)}% of #{logged}, asked #{(weight / total * 100).round(1)}%"
        assert_equal 0, m.fetch("endpoint.#{name}.error_count"), name
        assert_operator m.fetch("endpoint.#{name}.service_p99_s"), :>=, m.fetch("endpoint.#{name}.service_p50_s")
      end
      refute m.key?("endpoint.other.request_count"), "every request the server logged belongs to an endpoint"
      # wrk counts what it received; the server logs a few more that were in flight when wrk stopped.
      assert_in_delta m["request_count"], logged, [0.02 * logged, 20].max
      assert m.key?("queueing_mean_s")
      assert_includes trial.artifacts, "traffic.lua"
      assert File.file?(File.join(results, "artifacts", trial.batch_id, "traffic.lua"))
    end
    report = Rubyrig::Processes::TextFile.read(File.join(results, "report.md"))
    assert_match(/\| `system` \| connections=4 threads=2 \| show \| 2\d\.\d%/, report, "the Endpoints table, in the Markdown report")
  end

  # A member logs in (the server sets a cookie) and then reads the private page; a visitor reads it
  # without logging in. The server's own log says the member's reads answered 200 and the visitor's 401.
  def test_a_session_carries_its_cookie
    store, results = run_experiment(<<~YAML, batches: 1, options: "max_error_rate: 0.9\n")
      traffic:
        sessions:
          - name: member
            weight: 1
            steps:
              - {name: login, method: POST, path: /login, body: "user=alice&password=secret"}
              - think_s: 0.01
              - {name: private, path: /private}
              - {name: list, path: /posts}
              - {name: private_again, path: "/private?again=1"}
          - name: visitor
            weight: 1
            steps:
              - {name: list, path: /posts}
              - {name: private_visitor, path: "/private?from=visitor"}
    YAML
    trial = store.trials.first
    m = trial.metrics
    assert_equal "httperf", trial.facts["load_generator"]
    %w[login private private_again private_visitor list].each { |name| assert_operator m.fetch("endpoint.#{name}.request_count"), :>, 0, name }
    assert_equal 0, m.fetch("endpoint.private.error_count"), "a member's private page answers 200"
    assert_equal 0, m.fetch("endpoint.private_again.error_count")
    assert_equal m.fetch("endpoint.private_visitor.request_count"), m.fetch("endpoint.private_visitor.error_count"), "a visitor's answers 401"
    assert_equal 0, m.fetch("endpoint.list.error_count")
    refute m.key?("latency_p99_s"), "a session's connection lifetime is no request latency"
    assert_operator m.fetch("queueing_mean_s"), :>, -0.001
    assert File.file?(File.join(results, "artifacts", trial.batch_id, "traffic-1.wsesslog"))
  end

  # The open loop sends the mix as one-request sessions of a --wsesslog file at the offered rate: the
  # server's count holds the proportions (the file interleaves them; 1,000 sessions per cycle).
  def test_a_mix_arrives_at_an_offered_rate_in_the_open_loop
    dir = tmpdir
    exp = write(dir, "open.yml", <<~YAML)
      runtimes: [system]
      workloads:
        - app: #{APP}/config.ru
          name: open
          load_model: open
          params: {rate: 200, threads: 2}
          duration_s: 2
          warmup_s: 1
          traffic:
            requests:
              - {name: index, path: /posts, weight: 3}
              - {name: show, path: "/posts/{id}", values: {id: 1..50}, weight: 2}
              - {name: create, method: POST, path: /posts, body: "title=a", weight: 1}
      batches: 1
      seed: 5
    YAML
    results = File.join(dir, "run")
    status, out, err = run_cli("run", exp, "--results", results)
    assert_equal 0, status, "#{out}\n#{err}"
    trial = Rubyrig::Results::Store.open(results).trials.first
    assert trial.ok?, [trial.status, trial.reason].inspect
    m = trial.metrics
    logged = m.fetch("logged_request_count")
    assert_operator logged, :>, 50
    tolerance = [0.02, 3.0 / logged].max
    {"index" => 0.5, "show" => 1 / 3.0, "create" => 1 / 6.0}.each do |name, share|
      assert_in_delta share, m.fetch("endpoint.#{name}.share"), tolerance, name
    end
    assert_equal "httperf", trial.facts["load_generator"]
    assert m.key?("latency_p99_s"), "a one-request session's connection lifetime is that request's latency"
    assert File.file?(File.join(results, "artifacts", trial.batch_id, "traffic-1.wsesslog"))
  end

  def test_an_access_log_replays_with_its_own_mix
    store, = run_experiment("traffic: {access_log: access.log}\n", batches: 1)
    m = store.trials.first.metrics
    expected = {"get_posts" => 2, "get_posts_n" => 4, "get_robots_txt" => 1, "post_posts" => 1, "get_api_posts_n" => 1, "get_search" => 1}
    expected.each do |name, lines|
      assert_in_delta lines / 10.0, m.fetch("endpoint.#{name}.share"), 0.02, name
    end
  end
end
