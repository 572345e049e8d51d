require "test_helper"

class BuilderTest < Minitest::Test
  Builder = Rubyrig::Runtimes::Builder

  def setup
    @cache = tmpdir
    @io = StringIO.new
    @builder = Builder.new(cache_dir: @cache, env: {"PATH" => "/usr/bin:/bin", "HOME" => tmpdir},
      progress: Rubyrig::Runtimes::BuildProgress.new(io: @io, tty: false))
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
end
