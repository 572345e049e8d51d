require "test_helper"

# The catalog's choice between interpreters, with stand-ins for discovery and fingerprinting.
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
