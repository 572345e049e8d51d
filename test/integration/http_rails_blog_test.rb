# builtin:rails-blog on the system Ruby (Rails on SQLite under a real Puma): every endpoint answers as
# documented, in Puma's cluster mode with preload_app!; its two workers' writes at once all succeed; a
# new server forgets what the last one wrote; rubyrig's batches of the default mix (reads and writes,
# with wrk) are served in its shares, by the server's own count, and each starts from the same seeded
# rows, which the server's master records at boot; the mix also runs in the open loop (httperf); a
# session (httperf, with its cookie) sees the page only a logged-in user sees; and an access log of the
# blog replays with its own mix, by the server's count.
require "test_helper"
require "net/http"

class HttpRailsBlogTest < Minitest::Test
  include SlowTest

  BLOG = Rubyrig::Experiment::Builtins.fetch("rails-blog")
  SEEDED = {"users" => 50, "posts" => 2000, "comments" => 10_000}.freeze
  # The default mix of workload.yml: each endpoint's weight out of 100.
  MIX = {"index" => 30, "show" => 30, "api" => 15, "static" => 5, "create" => 10, "update" => 5, "login" => 5}.freeze
  # A mix's batches: two connections (so that at most two requests are in flight at either end of the
  # measured run) for long enough that a busy host's server logs some 300 requests.
  MEASURED = {"params" => {"connections" => 2}, "duration_s" => 12, "warmup_s" => 1}.freeze

  def test_every_endpoint_answers_a_new_server_starts_from_the_seeded_rows_and_both_workers_write_at_once
    env = gem_set_env
    _out, err, exit = Rubyrig::Processes::Child.capture(["ruby", "bin/prepare"], env: env, chdir: BLOG.dir, timeout_s: 300)
    assert exit.success?, err
    with_blog(env) do |http|
      assert_match(/Page 1 of 100\b/, get(http, "/").body)
      check_pages(http)
      check_writes(http)
      check_login(http)
      assert_match(/Page 1 of 101\b/, get(http, "/posts").body, "the created post is on the index")
    end
    with_blog(env) do |http, port|
      assert_match(/Page 1 of 100\b/, get(http, "/posts").body, "the new server's database is the seeded one")
      refute_match(/Renamed by the test/, get(http, "/posts/5").body)
      check_concurrent_writes(port)
    end
  end

  def test_the_default_mix_is_served_in_its_shares_and_each_batch_starts_from_the_seeded_rows
    results = run_blog(MEASURED)
    trials = Rubyrig::Results::Store.open(results).trials
    assert_equal 2, trials.size
    trials.each do |trial|
      assert trial.ok?, [trial.status, trial.reason].inspect
      assert_equal "rails", trial.facts["framework"]
      m = trial.metrics
      logged = m.fetch("logged_request_count")
      assert_operator logged, :>, 50, "too few requests to judge a mix"
      MIX.each do |name, weight|
        share = m.fetch("endpoint.#{name}.share")
        assert_in_delta weight / 100.0, share, tolerance(logged), "#{name}: the server's own count, #{(share * 100).round(1)}% of #{logged}, asked #{weight}%"
        assert_equal 0, m.fetch("endpoint.#{name}.error_count"), name
      end
      refute m.key?("endpoint.other.request_count"), "every request the server logged belongs to an endpoint"
    end
    rows = trials.map { |trial| database_facts(results, trial) }
    rows.each { |r| assert_equal SEEDED, r.fetch("at_boot").slice(*SEEDED.keys), "each batch starts from the seeded rows: #{rows}" }
    assert_equal 1, rows.map { |r| r["at_boot"]["bytes"] }.uniq.size, "the same database file at the start of each batch: #{rows}"
    trials.zip(rows).each do |trial, r|
      # At a clean exit the master counts again: the measured run's creates (and the warmup's) are there.
      next unless r["at_exit"]
      assert_operator r["at_exit"]["posts"], :>=, SEEDED["posts"] + trial.metrics.fetch("endpoint.create.request_count")
    end
  end

  def test_the_default_mix_runs_in_the_open_loop
    results = run_blog("load_model" => "open", "params" => {"rate" => 40}, "duration_s" => 3, "warmup_s" => 1, "batches" => 1)
    trial, = Rubyrig::Results::Store.open(results).trials
    assert trial.ok?, [trial.status, trial.reason].inspect
    MIX.each_key do |name|
      assert_operator trial.metrics.fetch("endpoint.#{name}.request_count"), :>, 0, name
      assert_equal 0, trial.metrics.fetch("endpoint.#{name}.error_count"), name
    end
    refute trial.metrics.key?("endpoint.other.request_count"), "httperf sends every request of the mix as it is"
  end

  def test_a_session_logs_in_and_sees_the_page_only_a_logged_in_user_sees
    traffic = {"sessions" => [
      {"name" => "writer", "weight" => 1, "steps" => [
        {"name" => "login", "method" => "POST", "path" => "/login", "body" => "email=user7@example.com&password=password"},
        {"name" => "account", "path" => "/account"},
        {"think_s" => 0.05},
        {"name" => "show", "path" => "/posts/{id}", "values" => {"id" => "1..2000"}}
      ]},
      # Its own query, so that the server's log tells a visitor's account page from a writer's.
      {"name" => "visitor", "weight" => 1, "steps" => [{"name" => "visitor_account", "path" => "/account?as=visitor"}, {"name" => "index", "path" => "/posts"}]}
    ]}
    # The visitors' 401s are answers the test asks for, not failures of the batch.
    results = run_blog("duration_s" => 5, "warmup_s" => 0, "traffic" => traffic, "max_error_rate" => 0.5, "batches" => 1)
    trial, = Rubyrig::Results::Store.open(results).trials
    m = trial.metrics
    %w[login account show visitor_account index].each { |name| assert_operator m.fetch("endpoint.#{name}.request_count"), :>, 0, name }
    assert_equal 0, m.fetch("endpoint.account.error_count"), "inside a session the account page answers 200"
    assert_equal m.fetch("endpoint.visitor_account.request_count"), m.fetch("endpoint.visitor_account.error_count"), "without one, 401"
  end

  # test/fixtures/rails-blog/access.log: 20 lines of the blog's routes, as a log of it would hold them
  # (the endpoint each groups into: its lines).
  LOGGED = {"get_posts_n" => 6, "get_posts" => 4, "get_api_posts_json" => 3, "get_api_posts_n_json" => 2, "get_blog_css" => 2,
            "get" => 2, "post_login" => 1}.freeze

  def test_an_access_log_of_the_blog_replays_with_its_own_mix
    # The log has no bodies: its login answers 401, an error the test expects (1 request in 20).
    traffic = {"access_log" => File.expand_path("../fixtures/rails-blog/access.log", __dir__)}
    results = run_blog(MEASURED.merge("traffic" => traffic, "max_error_rate" => 0.1, "batches" => 1))
    trial, = Rubyrig::Results::Store.open(results).trials
    assert trial.ok?, [trial.status, trial.reason].inspect
    m = trial.metrics
    logged = m.fetch("logged_request_count")
    assert_operator logged, :>, 50, "too few requests to judge a mix"
    LOGGED.each do |name, lines|
      share = m.fetch("endpoint.#{name}.share")
      assert_in_delta lines / 20.0, share, tolerance(logged), "#{name}: served #{(share * 100).round(1)}% of #{logged}, logged #{lines * 5}%"
    end
    assert_equal m.fetch("endpoint.post_login.request_count"), m.fetch("endpoint.post_login.error_count"), "a log's POST is replayed without its body"
    (LOGGED.keys - ["post_login"]).each { |name| assert_equal 0, m.fetch("endpoint.#{name}.error_count"), name }
    refute m.key?("endpoint.other.request_count"), "every request the server logged is one of the log's endpoints"
  end

  private

  # How far the server's shares may be from the asked ones by construction: the sequence wrk cycles
  # through (the default mix's, the log's) holds each endpoint in its share to within 1.5 requests in
  # any stretch, and up to one request per connection (2) may be in flight at each end of the measured
  # run, so an endpoint's count is within 6 of its share: 2 points from 300 requests on.
  def tolerance(logged) = [0.02, 6.0 / logged].max

  # Runs the built-in on the system Ruby with the entry's keys over the test's and returns the results directory.
  def run_blog(keys)
    keys = keys.dup
    batches = keys.delete("batches") || 2
    entry = {"builtin" => "rails-blog", "request_timeout_s" => 10, "boot_timeout_s" => 120}.merge(keys)
    exp = write(tmpdir, "blog.yml", JSON.generate("runtimes" => ["system"], "workloads" => [entry], "batches" => batches, "seed" => 11))
    results = File.join(tmpdir, "run")
    status, out, err = run_cli("run", exp, "--results", results)
    assert_equal 0, status, "#{out}\n#{err}"
    results
  end

  # The environment of the runtime's gem set (installed once into the shared cache), in production.
  def gem_set_env
    catalog = Rubyrig::Runtimes::Catalog.new(discovery: Rubyrig::Runtimes::Discovery.new(env: ENV.to_h, cache_dir: cache_dir),
      fingerprint: Rubyrig::Runtimes::Fingerprint.new(cache_dir: cache_dir))
    ruby = catalog.resolve("system")
    bundle = Rubyrig::Runtimes::Bundle.new(cache_dir: cache_dir, interpreter: ruby, gemfile: BLOG.gemfile).install!
    bundle.env.merge("RAILS_ENV" => "production", "RACK_ENV" => "production", "RAILS_LOG_LEVEL" => "warn",
      "PATH" => [ruby.bin_dir, ENV.fetch("PATH", "")].join(File::PATH_SEPARATOR), "RUBYOPT" => nil)
  end

  # Puma in cluster mode (2 workers, the app preloaded in the master), stopped at the end of the block.
  def with_blog(env)
    port = Rubyrig::Services::Ports.free
    log = File.join(tmpdir, "puma.log")
    puma = Rubyrig::Processes::Child.spawn(["ruby", "-rbundler/setup", "-e", Rubyrig::Services::Puma::LAUNCH, "--",
      "-b", "tcp://127.0.0.1:#{port}", "-w", "2", "--preload", "-t", "2:2", "config.ru"], env: env, chdir: BLOG.dir, out: log, err: [:child, :out])
    wait_for(timeout_s: 120, message: "Puma answering (#{log})") { answers?(port) }
    Net::HTTP.start("127.0.0.1", port, read_timeout: 30) { |http| yield http, port }
  ensure
    puma&.stop(grace_s: 10)
  end

  def answers?(port)
    Net::HTTP.start("127.0.0.1", port, read_timeout: 30) { |http| http.get("/").code == "200" }
  rescue SystemCallError, IOError, Net::ReadTimeout
    false
  end

  def check_pages(http)
    index = get(http, "/posts?page=3")
    assert_equal "200", index.code
    assert_equal 20, index.body.scan('<article class="post">').size
    show = get(http, "/posts/7")
    assert_equal "200", show.code
    comments = show.body[/(\d+) comments?/, 1].to_i
    assert_equal comments, show.body.scan('<div class="comment"').size, "the post's comments, each with its author"
    api = JSON.parse(get(http, "/api/posts.json?page=2").body)
    assert_equal 20, api.size
    assert api.all? { |post| post["author"]["name"] && post["comments_count"] }
    assert_equal comments, JSON.parse(get(http, "/api/posts/7.json").body).fetch("comments").size
    css = get(http, "/blog.css")
    assert_equal ["200", File.size(File.join(BLOG.dir, "public", "blog.css"))], [css.code, css.body.bytesize]
    assert_equal "404", get(http, "/posts/999999").code
  end

  def check_writes(http)
    created = http.post("/posts", "post[title]=Written+by+the+test&post[body]=Hello&post[user_id]=3")
    assert_equal "201", created.code, created.body
    assert_equal 2001, JSON.parse(created.body)["id"]
    updated = http.patch("/posts/5", "post[title]=Renamed+by+the+test")
    assert_equal ["200", "Renamed by the test"], [updated.code, JSON.parse(updated.body)["title"]]
    posted = http.post("/posts/6", "post[body]=Rewritten")
    assert_equal ["200", 6], [posted.code, JSON.parse(posted.body)["id"]], "an update by POST, for clients without PATCH"
    assert_equal "422", http.post("/posts", "post[title]=No+body&post[user_id]=3").code
  end

  def check_login(http)
    assert_equal "401", get(http, "/account").code
    assert_equal "401", http.post("/login", "email=user7@example.com&password=wrong").code
    login = http.post("/login", "email=user7@example.com&password=password")
    assert_equal ["303", "/account"], [login.code, URI(login["location"]).path]
    cookie = login["set-cookie"].split(";").first
    assert_operator cookie.bytesize, :<=, 256, "httperf's sessions carry a cookie of at most 256 bytes"
    account = get(http, "/account", "Cookie" => cookie)
    assert_equal "200", account.code
    assert_includes account.body, "user7@example.com"
  end

  def get(http, path, headers = {}) = http.get(path, headers)

  # Creates and updates from 8 clients at once, which the two workers (2 threads each) serve together:
  # every one succeeds (a transaction that read before it wrote used to get "database is locked" at
  # once when the other worker had written meanwhile, a 500).
  def check_concurrent_writes(port)
    codes = Array.new(8) do |client|
      Thread.new do
        Net::HTTP.start("127.0.0.1", port, read_timeout: 30) do |http|
          Array.new(16) do |i|
            path = i.even? ? "/posts" : "/posts/#{client * 100 + i}"
            http.post(path, "post[title]=Concurrent+#{client}-#{i}&post[body]=Two+workers+at+once.&post[user_id]=#{client + 1}").code
          end
        end
      end
    end.flat_map(&:value)
    assert_equal({"201" => 64, "200" => 64}, codes.tally, "every concurrent write succeeds")
  end

  # The row counts the blog's master wrote beside its probe report (at boot, and at a clean exit).
  def database_facts(results, trial)
    files = Dir.glob(File.join(results, "artifacts", trial.batch_id, "probe", "blog-database-*.json"))
    assert_equal 1, files.size, "one server, one file: #{files}"
    JSON.parse(File.read(files.first, encoding: "UTF-8"))
  end
end
