# A real Rails app with its own Gemfile.lock (three models in SQLite, ERB views) on CRuby 3.3.8, whose
# bundler wrote the lockfile (so nokogiri and sqlite3 come precompiled; Ruby 3.1's bundler would build
# them from source, which takes most of an hour on a busy 2-core host): the lockfile is installed as it
# is, the app's `prepare:` step creates and seeds the database before the first batch, and Puma serves
# the seeded pages to wrk. A failing step stops the run with one line naming the step and its log.
require "test_helper"
require "digest"
require "fileutils"

class HttpRailsAppTest < Minitest::Test
  include SlowTest

  FIXTURE = File.join(RubyrigTest::ROOT, "test", "fixtures", "rails-app")

  def setup
    super
    skip "CRuby 3.3.8 is not built: run bin/setup-rubies" unless File.executable?(File.join(cache_dir, "rubies", "3.3.8", "bin", "ruby"))
  end

  # A fresh copy of the app at a fixed place, so that each runtime's gem set for it is installed once.
  def app_copy
    dir = File.join(cache_dir, "test-apps", "rails-app")
    FileUtils.rm_rf(dir)
    FileUtils.mkdir_p(File.dirname(dir))
    FileUtils.cp_r(FIXTURE, dir)
    dir
  end

  def experiment(app, prepare)
    write(tmpdir, "app.yml", <<~YAML)
      runtimes: [3.3.8, 3.3.8+yjit]
      workloads:
        - app: #{app}
          prepare: #{prepare}
          duration_s: 2
          warmup_s: 1
          # Longer than a run: on a busy host a slow request is slow, never a timeout that fails the batch.
          request_timeout_s: 10
          boot_timeout_s: 300
          params: {connections: 4}
      batches: 2
      seed: 3
    YAML
  end

  def test_the_apps_lockfile_and_prepare_step_on_two_runtimes
    app = app_copy
    results = File.join(tmpdir, "run")
    status, out, err = run_cli("run", experiment(app, "bin/rails db:prepare"), "--results", results)
    assert_equal 0, status, "#{out}\n#{err}"
    store = Rubyrig::Results::Store.open(results)
    lock_sha = Digest::SHA256.file(File.join(FIXTURE, "Gemfile.lock")).hexdigest

    prepared = store.meta.fetch("prepared")
    assert_equal %w[3.3.8 3.3.8+yjit], prepared.map { |p| p["runtime"] }.sort, "once per runtime"
    prepared.each do |p|
      assert_equal %w[bin/rails db:prepare], p["argv"]
      assert File.file?(File.join(results, p["log"])), p["log"]
    end
    database = File.join(app, "db", "production.sqlite3")
    assert File.file?(database), "db:prepare ran in production, in the app's directory"
    count, = Rubyrig::Processes::Child.capture(["sqlite3", database, "select count(*) from reviews"])
    assert_equal "150", count.strip, "the seeds ran once: the second runtime found the database prepared"

    bundles = store.meta.fetch("bundles")
    assert_equal 2, bundles.size, "one entry per runtime label (the same interpreter shares its gem set)"
    bundles.each do |b|
      assert_equal "as-is", b["resolution"], b.inspect
      assert_equal lock_sha, b["source_lockfile_sha256"]
      assert_equal lock_sha, b["lockfile_sha256"], "the app's lockfile, unchanged"
      assert_equal "7.2.4", b.dig("gems", "railties")
    end

    trials = store.trials
    assert_equal 4, trials.size
    trials.each do |t|
      assert_equal t.runtime.end_with?("+yjit"), t.facts["yjit_enabled"], "the runtime, not Rails, decides on YJIT"
      assert t.ok?, [t.status, t.reason].inspect
      assert_equal "rails", t.facts["framework"]
      assert_equal "as-is", t.facts["lockfile_resolution"]
      assert_equal lock_sha, t.facts["source_lockfile_sha256"]
      wrk = t.samples.fetch("wrk")
      assert_operator wrk["requests"], :>, 0
      assert_operator wrk["bytes"] / wrk["requests"], :>, 3000, "each response is the seeded index: 10 authors, 50 books"
    end
  end

  def test_a_failing_prepare_step_stops_the_run_naming_the_step_and_its_log
    results = File.join(tmpdir, "run")
    status, _out, err = run_cli("run", experiment(app_copy, "[bin/rails, db:no_such_task]"), "--results", results)
    assert_equal 1, status
    line = err.lines.grep(/rubyrig: error:/).first.to_s
    assert_match(%r{the prepare step `bin/rails db:no_such_task` of .*rails-app/config\.ru failed for runtime 3\.3\.8(\+yjit)? \(exited with status 1\); see #{results}/prepare/.*\.log}, line)
    assert_equal 1, err.lines.grep(/rubyrig: error:/).size
    assert_empty Rubyrig::Results::Store.open(results).trials, "nothing was measured"
  end
end
