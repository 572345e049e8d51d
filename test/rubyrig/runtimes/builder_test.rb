require "test_helper"

class BuilderTest < Minitest::Test
  Builder = Rubyrig::Runtimes::Builder

  def setup
    @cache = tmpdir
    @io = StringIO.new
    @packages = RecordingPackages.new
    @builder = Builder.new(cache_dir: @cache, env: {"PATH" => "/usr/bin:/bin", "HOME" => tmpdir},
      progress: Rubyrig::Runtimes::BuildProgress.new(io: @io, tty: false), packages: @packages, arch: "amd64")
  end

  # Stands in for Apt: records what a build asked to install, and can refuse like a user who is not root.
  class RecordingPackages
    attr_reader :asked
    attr_accessor :refusal

    def installed?(_name) = false

    def ensure!(packages, why:)
      @asked = [packages, why]
      raise Rubyrig::ToolMissing, refusal if refusal
    end
  end

  # A Debian source that serves a .dsc from memory and must never be unpacked in these tests.
  class FakeDebianSource < Rubyrig::Runtimes::DebianSource
    def initialize(dsc_text)
      super(version: "3.3.8", cache_dir: Dir.tmpdir, log: nil, progress: nil)
      @text = dsc_text
    end

    def build_dependencies(arch:, installed:) = self.class.declared_dependencies(@text, arch: arch, installed: installed)

    def describe = "a fake Debian source"

    def unpack(_dir) = raise("unpacked although the dependencies were refused")
  end

  def request(**options)
    Builder::Request.new(version: "3.3.8", name: "3.3.8", jemalloc: false, **options)
  end

  def fake_build(name, marker)
    ruby = write(@builder.prefix(name), "bin/ruby", "#!/bin/sh\n")
    File.chmod(0o755, ruby)
    write(@builder.prefix(name), Builder::MARKER, JSON.generate(marker)) if marker
  end

  def marker(**extra)
    {"name" => "3.3.8", "version" => "3.3.8", "description" => "ruby 3.3.8", "jemalloc" => false,
     "extra_configure_args" => [], "configure_args" => ["--prefix=x"], "duration_s" => 700.0}.merge(extra.transform_keys(&:to_s))
  end

  def test_a_finished_build_is_a_cache_hit
    fake_build("3.3.8", marker)
    result = @builder.build(request)
    assert result.cached
    assert_equal "ruby 3.3.8", result.description
    assert_equal File.join(@cache, "rubies", "3.3.8"), result.prefix
    assert_empty @io.string
  end

  def test_a_directory_without_a_marker_is_not_a_build
    fake_build("3.3.8", nil)
    assert_nil @builder.cached("3.3.8")
  end

  def test_a_cached_build_with_other_options_is_not_reused_silently
    fake_build("3.3.8", marker(extra_configure_args: ["--enable-shared"]))
    error = assert_raises(Rubyrig::BuildError) { @builder.build(request) }
    assert_match(/already built with other options .* give --name for a second build or --force/, error.message)
    fake_build("3.3.8", marker)
    assert_raises(Rubyrig::BuildError) { @builder.build(request(jemalloc: true)) }
  end

  def test_versions_and_names_are_checked
    assert_raises(Rubyrig::UsageError) { @builder.build(request(version: "3.3")) }
    assert_raises(Rubyrig::UsageError) { @builder.build(request(name: "../x")) }
  end

  def test_the_default_name_marks_jemalloc
    assert_equal "3.3.8", Builder.default_name("3.3.8", false)
    assert_equal "3.3.8-jemalloc", Builder.default_name("3.3.8", true)
  end

  def test_extra_configure_options_are_split_like_a_shell_without_one
    assert_equal ["--enable-shared", "CFLAGS=-O2 -g"], @builder.extra_args(request(configure_opts: "--enable-shared 'CFLAGS=-O2 -g'"))
  end

  def test_a_debian_source_build_asks_for_its_declared_dependencies_before_anything_runs
    source = FakeDebianSource.new("Source: ruby3.3\nBuild-Depends: bison, netbase <!nocheck>, libyaml-dev\n")
    @packages.refusal = "refused for the test"
    @builder.define_singleton_method(:candidate_sources) { |_request, _log| [source] }
    error = assert_raises(Rubyrig::ToolMissing) { @builder.build(request(jemalloc: true, name: "3.3.8-jemalloc")) }
    assert_equal "refused for the test", error.message
    packages, why = @packages.asked
    assert_equal %w[build-essential bison libyaml-dev], packages.first(3)
    assert_includes packages, "libjemalloc-dev", "--jemalloc adds jemalloc's headers"
    assert_equal "building CRuby 3.3.8 from a fake Debian source", why
    refute File.exist?(@builder.prefix("3.3.8-jemalloc"))
  end
end
