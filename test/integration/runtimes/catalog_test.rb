require "test_helper"

class CatalogTest < Minitest::Test
  include SlowTest

  # A PATH holding only the host ruby, so that slow-starting JRuby stays out of these tests.
  def catalog
    bin = tmpdir
    File.symlink(RbConfig.ruby, File.join(bin, "ruby"))
    env = {"HOME" => tmpdir, "PATH" => bin}
    cache = tmpdir
    Rubyrig::Runtimes::Catalog.new(
      discovery: Rubyrig::Runtimes::Discovery.new(env: env, cache_dir: cache),
      fingerprint: Rubyrig::Runtimes::Fingerprint.new(cache_dir: cache)
    )
  end

  def test_system_and_version_prefixes_resolve_to_the_host_ruby
    c = catalog
    system = c.resolve("system")
    assert_equal "ruby", system.engine
    assert_equal RUBY_VERSION, system.version
    assert_equal system.path, c.resolve(RUBY_VERSION[0, 3]).path
    assert_equal system.path, c.resolve(RUBY_VERSION).path
  end

  def test_a_path_resolves_and_is_fingerprinted
    interp = catalog.resolve(RbConfig.ruby)
    assert_equal RUBY_DESCRIPTION.sub(" +YJIT", ""), interp.description.sub(" +YJIT", "")
    assert_match(/\A\h{16}\z/, interp.fingerprint)
  end

  def test_unknown_versions_say_how_to_build_them
    e = assert_raises(Rubyrig::RuntimeSpecError) { catalog.resolve("2.9") }
    assert_match(/no interpreter matches runtime '2\.9': build it with `rubyrig build 2\.9`; found system \(ruby #{RUBY_VERSION}\)/o, e.message)
  end

  def test_a_path_that_is_not_ruby
    e = assert_raises(Rubyrig::RuntimeSpecError) { catalog.resolve("/bin/true") }
    assert_match(%r{/bin/true did not run as a Ruby interpreter}, e.message)
    e = assert_raises(Rubyrig::RuntimeSpecError) { catalog.resolve("/nonexistent/ruby") }
    assert_match(/is not an executable file/, e.message)
  end

  def test_fingerprints_are_cached
    cache = tmpdir
    fingerprint = Rubyrig::Runtimes::Fingerprint.new(cache_dir: cache)
    first = fingerprint.describe(RbConfig.ruby, name: "x", source: "test")
    assert File.exist?(File.join(cache, "interpreters.json"))
    again = Rubyrig::Runtimes::Fingerprint.new(cache_dir: cache).describe(RbConfig.ruby, name: "x", source: "test")
    assert_equal first, again
  end
end
