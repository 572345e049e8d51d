# Real bundler, Puma and wrk on apps as users bring them: an app whose bundle lacks Puma runs with Puma
# added to its gem set (the app's locked versions kept, one line saying so before the first batch,
# run.json recording it); where Puma cannot be added (its source out of reach) the run stops before
# any batch with one line saying what to add to the Gemfile; an app that raises while it boots in
# cluster mode fails with the exception's message, not the tail of its backtrace. A second checkout of
# an app reuses the gems the first one installed.
require "test_helper"
require "digest"
require "socket"

class HttpAppBundleTest < Minitest::Test
  include SlowTest

  FIXTURES = File.join(RubyrigTest::ROOT, "test", "fixtures")
  WITHOUT_PUMA = File.join(FIXTURES, "http-app-without-puma")
  NOTE = "rubyrig added puma to http-app-without-puma's gem set (the app's bundle lacks it)"

  def run_experiment(dir, app, extra = "")
    exp = write(dir, "exp.yml", "runtimes: [system]\nworkloads:\n  - app: #{app}\n    duration_s: 1\n    warmup_s: 0\n#{extra}batches: 2\n")
    results = File.join(dir, "run")
    status, out, err = run_cli("run", exp, "--results", results)
    [status, out + err, err, results]
  end

  def test_an_app_without_puma_in_its_bundle_runs_with_puma_added_to_its_gem_set
    app_files = %w[Gemfile Gemfile.lock].to_h { |name| [name, Digest::SHA256.file(File.join(WITHOUT_PUMA, name)).hexdigest] }
    status, output, err, results = run_experiment(tmpdir, WITHOUT_PUMA)
    assert_equal 0, status, output
    assert_equal 1, err.lines.count { |line| line.include?("added puma") }, err
    note_at = err.lines.index("#{NOTE}\n")
    assert note_at, "the note, word for word: #{err}"
    assert_operator note_at, :<, err.lines.index { |line| line.start_with?("[1/2]") }, "said before the first batch"
    refute_match(/cannot use .* as it is/, err, "adding puma is said once, not as a lockfile warning too")

    store = Rubyrig::Results::Store.open(results)
    assert_equal %w[ok ok], store.trials.map(&:status)
    assert store.trials.all? { |t| t.metrics["requests_per_s"].positive? }
    bundle = store.meta.fetch("bundles").fetch(0)
    assert_equal %w[puma], bundle["added_gems"]
    assert_match(/\A\d+\.\d+/, bundle.dig("gems", "puma"))
    assert_equal "3.2.8", bundle.dig("gems", "rack"), "the app's locked Rack, not the newest"
    assert_equal "rubyrig added puma, which the app's bundle lacks; the app's locked versions are kept", bundle["resolution_reason"]
    assert_equal app_files, app_files.to_h { |name, _| [name, Digest::SHA256.file(File.join(WITHOUT_PUMA, name)).hexdigest] },
      "the app's own Gemfile and lockfile are left as they are"
  end

  def test_a_second_checkout_of_the_app_reuses_the_installed_puma_and_runs_its_own_gemfile
    checkouts = [tmpdir, tmpdir].map do |dir|
      FileUtils.cp_r(WITHOUT_PUMA, dir)
      File.join(dir, "http-app-without-puma")
    end
    interpreter = Rubyrig::Runtimes::Catalog.new(discovery: Rubyrig::Runtimes::Discovery.new(env: ENV.to_h, cache_dir: cache_dir),
      fingerprint: Rubyrig::Runtimes::Fingerprint.new(cache_dir: cache_dir)).resolve("system")
    first, second = checkouts.map do |app|
      Rubyrig::Runtimes::Bundle.new(cache_dir: cache_dir, interpreter: interpreter, gemfile: File.join(app, "Gemfile"), required_gems: %w[puma]).install!
    end
    assert_equal first.env["BUNDLE_PATH"], second.env["BUNDLE_PATH"]
    log = Rubyrig::Processes::TextFile.read(second.log_path)
    assert_match(/^Using puma /, log)
    refute_match(/^Installing puma /, log, "the second checkout compiles nothing again")
    [first, second].zip(checkouts).each do |bundle, app|
      assert_includes Rubyrig::Processes::TextFile.read(File.join(bundle.dir, "Gemfile")), File.join(app, "Gemfile").dump, "its own app's Gemfile"
      out, err, exit = Rubyrig::Processes::Child.capture([interpreter.path, "-rbundler/setup", "-e", 'require "puma"; print Bundler.default_gemfile'],
        env: bundle.env.merge("RUBYOPT" => nil, "RUBYLIB" => nil))
      assert exit.success?, err
      assert_equal File.join(bundle.dir, "Gemfile"), out
    end
  end

  def test_puma_that_cannot_be_added_stops_the_run_before_its_first_batch_with_what_to_add
    dir = tmpdir
    closed = TCPServer.new("127.0.0.1", 0)
    port = closed.addr[1]
    closed.close
    write(dir, "app/Gemfile", "source \"http://127.0.0.1:#{port}\"\n")
    write(dir, "app/Gemfile.lock", "GEM\n  remote: http://127.0.0.1:#{port}/\n  specs:\n\nPLATFORMS\n  x86_64-linux\n\nDEPENDENCIES\n")
    write(dir, "app/config.ru", "run(lambda { |_env| [200, {}, [\"hi\"]] })\n")
    status, output, err, results = run_experiment(dir, File.join(dir, "app"))
    assert_equal 1, status, output
    errors = err.lines.grep(/\Arubyrig: error: /)
    assert_equal 1, errors.size, err
    assert_match(%r{\Arubyrig: error: #{Regexp.escape(File.join(dir, "app", "Gemfile"))} lacks puma, which rubyrig could not add to its gem set for system \(.+\): add `gem "puma"` to it and run `bundle install` there; see \S+install\.log\n\z}, errors.first)
    refute_match(/^\[\d+\/2\]/, output, "no batch ran")
    refute File.exist?(File.join(results, "trials.jsonl")) && !Rubyrig::Processes::TextFile.read(File.join(results, "trials.jsonl")).empty?
  end

  def test_an_app_that_raises_while_booting_in_cluster_mode_fails_with_the_exceptions_message
    status, output, _err, results = run_experiment(tmpdir, File.join(FIXTURES, "http-app-raises-at-boot"), "    params: {processes: 2}\n")
    assert_equal 1, status
    trials = Rubyrig::Results::Store.open(results).trials
    assert_equal %w[failed failed], trials.map(&:status)
    trials.each do |trial|
      assert_match(/\APuma exited while booting \(exited with status 1\): .*ArgumentError: DATABASE_URL is not set: give the app a database; its log is kept in \S+server-stderr\.log\z/, trial.reason)
      refute_match(/from |:in `|config\.ru:\d/, trial.reason.sub(/; its log is kept in .*/, ""), "the cause, not a backtrace line")
    end
    assert_includes output, "DATABASE_URL is not set: give the app a database"
  end
end
