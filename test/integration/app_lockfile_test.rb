# An app's own Gemfile.lock on two runtimes, with real bundlers: CRuby 3.3.8 installs it as it is
# (frozen, the same digest); the system Ruby 3.1 cannot run the Sidekiq 8 it locks, so it resolves on
# its own and records why and both digests. Each gem set is installed once into the shared cache.
require "test_helper"
require "digest"

class AppLockfileTest < Minitest::Test
  include SlowTest

  APP = File.join(RubyrigTest::ROOT, "test", "fixtures", "app-lockfile")
  NEWER_BUNDLER = File.join(RubyrigTest::ROOT, "test", "fixtures", "app-lockfile-newer-bundler")

  def bundle(runtime, app = APP)
    catalog = Rubyrig::Runtimes::Catalog.new(discovery: Rubyrig::Runtimes::Discovery.new(env: ENV.to_h, cache_dir: cache_dir),
      fingerprint: Rubyrig::Runtimes::Fingerprint.new(cache_dir: cache_dir))
    Rubyrig::Runtimes::Bundle.new(cache_dir: cache_dir, interpreter: catalog.resolve(runtime), gemfile: File.join(app, "Gemfile")).install!
  end

  def test_the_lockfile_is_used_as_it_is_where_it_resolves_and_re_resolved_where_not
    skip "CRuby 3.3.8 is not built: run bin/setup-rubies" unless File.executable?(File.join(cache_dir, "rubies", "3.3.8", "bin", "ruby"))
    app_sha = Digest::SHA256.file(File.join(APP, "Gemfile.lock")).hexdigest

    as_is = bundle("3.3.8").to_h
    assert_equal "as-is", as_is["resolution"]
    assert_equal app_sha, as_is["source_lockfile_sha256"]
    assert_equal app_sha, as_is["lockfile_sha256"]
    assert_equal "8.1.7", as_is.dig("gems", "sidekiq"), "the locked version"

    own = bundle("system").to_h
    assert_equal "re-resolved", own["resolution"]
    assert_match(/requires ruby version >= 3\.2/, own["resolution_reason"])
    assert_equal app_sha, own["source_lockfile_sha256"]
    refute_equal app_sha, own["lockfile_sha256"]
    assert_equal Digest::SHA256.file(own["lockfile"]).hexdigest, own["lockfile_sha256"]
    assert_match(/\A7\./, own.dig("gems", "sidekiq"), "the newest Sidekiq that Ruby 3.1 runs")

    rows = Rubyrig::Analysis::GemSets.of(Rubyrig::Results::RunMeta.new("bundles" => [as_is.merge("runtime" => "3.3.8"), own.merge("runtime" => "system")]))
    warnings = Rubyrig::Analysis::GemSets.warnings(rows)
    assert_equal 1, warnings.size
    assert_match(/\Asystem did not use .*app-lockfile\/Gemfile.lock as it is \(.*requires ruby version >= 3\.2/, warnings.first)
  end

  def test_a_lockfile_from_a_newer_bundler_is_installed_by_the_runtimes_own
    lock = File.join(NEWER_BUNDLER, "Gemfile.lock")
    assert_match(/BUNDLED WITH\n   2\.5\./, Rubyrig::Processes::TextFile.read(lock))
    installed = bundle("system", NEWER_BUNDLER)
    assert_equal "as-is", installed.resolution
    assert_equal Digest::SHA256.file(lock).hexdigest, installed.lockfile_sha256
    assert_match(/\A2\.3\./, installed.env["BUNDLER_VERSION"], "Ruby 3.1's own bundler, not the locked 2.5")
    script = 'require "rack"; print Rack.release, " ", Bundler::VERSION'
    out, err, exit = Rubyrig::Processes::Child.capture([installed.interpreter.path, "-rbundler/setup", "-e", script], env: installed.env.merge("RUBYOPT" => nil))
    assert exit.success?, err
    assert_match(/\A3\.1\.\d+ 2\.3\./, out)
  end
end
