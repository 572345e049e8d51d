require "test_helper"

class CatalogTest < Minitest::Test
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

class CatalogChoiceTest < Minitest::Test
  Interpreter = Rubyrig::Runtimes::Interpreter
  Candidate = Rubyrig::Runtimes::Discovery::Candidate

  # Discovery and fingerprinting stand-ins: the catalog's choice between interpreters is pure logic.
  Found = Struct.new(:candidates)
  Described = Struct.new(:versions) do
    def describe(path, name:, source:) = Interpreter.new(name: name, path: path, source: source, engine: "ruby", version: versions.fetch(name))
  end

  def catalog(*names_and_sources)
    candidates = names_and_sources.map { |name, source| Candidate.new(name: name, path: "/r/#{name}/bin/ruby", source: source) }
    versions = {"system" => "3.1.2", "3.3.8" => "3.3.8", "3.3.8-jemalloc" => "3.3.8"}
    Rubyrig::Runtimes::Catalog.new(discovery: Found.new(candidates), fingerprint: Described.new(versions))
  end

  def test_a_version_prefers_the_plain_build_over_a_variant_build
    c = catalog(["3.3.8-jemalloc", "rubyrig"], ["3.3.8", "rubyrig"], ["system", "PATH"])
    assert_equal "3.3.8", c.resolve("3.3").name
    assert_equal "3.3.8", c.resolve("3.3.8").name
    assert_equal "3.3.8-jemalloc", c.resolve("3.3.8-jemalloc").name
  end

  def test_an_unknown_version_says_how_to_build_it
    error = assert_raises(Rubyrig::RuntimeSpecError) { catalog(["system", "PATH"]).resolve("3.4.1") }
    assert_match(/build it with `rubyrig build 3\.4\.1`/, error.message)
  end
end
