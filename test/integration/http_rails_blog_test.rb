# builtin:rails-blog on the system Ruby (Rails on SQLite under a real Puma): every endpoint answers as
# documented, in Puma's cluster mode with preload_app!; a new server forgets what the last one wrote; and
# rubyrig's batches each start from the same seeded rows, which the server's master records at boot.
require "test_helper"
require "net/http"

class HttpRailsBlogTest < Minitest::Test
  include SlowTest

  BLOG = Rubyrig::Experiment::Builtins.fetch("rails-blog")
  SEEDED = {"users" => 50, "posts" => 2000, "comments" => 10_000}.freeze

  def test_every_endpoint_answers_and_a_new_server_starts_from_the_seeded_rows
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
    with_blog(env) do |http|
      assert_match(/Page 1 of 100\b/, get(http, "/posts").body, "the new server's database is the seeded one")
      refute_match(/Renamed by the test/, get(http, "/posts/5").body)
    end
  end

  def test_each_batch_starts_from_the_same_seeded_database
    results = File.join(tmpdir, "run")
    exp = write(tmpdir, "blog.yml", <<~YAML)
      runtimes: [system]
      workloads:
        - builtin: rails-blog
          duration_s: 2
          warmup_s: 1
          request_timeout_s: 10
          boot_timeout_s: 120
      batches: 2
      seed: 11
    YAML
    status, out, err = run_cli("run", exp, "--results", results)
    assert_equal 0, status, "#{out}\n#{err}"
    trials = Rubyrig::Results::Store.open(results).trials
    assert_equal 2, trials.size
    trials.each do |trial|
      assert trial.ok?, [trial.status, trial.reason].inspect
      assert_equal "rails", trial.facts["framework"]
      assert_operator trial.metrics["requests_per_s"], :>, 0
    end
    at_boot = trials.map { |trial| database_facts(results, trial).fetch("at_boot") }
    at_boot.each { |rows| assert_equal SEEDED, rows.slice(*SEEDED.keys) }
    assert_equal 1, at_boot.map { |rows| rows["bytes"] }.uniq.size, "the same database file at the start of each batch: #{at_boot}"
  end

  private

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
    Net::HTTP.start("127.0.0.1", port, read_timeout: 30) { |http| yield http }
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

  # The row counts the blog's master wrote beside its probe report (at boot, and at a clean exit).
  def database_facts(results, trial)
    files = Dir.glob(File.join(results, "artifacts", trial.batch_id, "probe", "blog-database-*.json"))
    assert_equal 1, files.size, "one server, one file: #{files}"
    JSON.parse(File.read(files.first, encoding: "UTF-8"))
  end
end
