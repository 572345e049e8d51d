require "test_helper"

class BuildDepsTest < Minitest::Test
  BuildDeps = Rubyrig::Runtimes::BuildDeps

  def setup
    @bin = tmpdir
    @include = tmpdir
  end

  def program(name)
    path = write(@bin, name, "#!/bin/sh\n")
    File.chmod(0o755, path)
  end

  def header(name) = write(@include, name, "")

  def deps(root: true) = BuildDeps.new(path: @bin, include_dirs: [@include], root: root)

  def test_lists_each_missing_dependency_with_the_apt_command
    program("gcc")
    header("zlib.h")
    required = deps.required(version: "3.3.8", jemalloc: true, tarball: "ruby-3.3.8.tar.xz")
    error = assert_raises(Rubyrig::BuildError) { deps.check!(required) }
    assert_match(/missing build dependencies: make \(make: runs the build\), libssl-dev \(openssl\/ssl\.h/, error.message)
    assert_match(/install them with: apt-get install -y make libssl-dev libyaml-dev libffi-dev libjemalloc-dev xz-utils\z/, error.message)
    refute_includes error.message, "zlib1g-dev"
    refute_includes error.message, "gcc ("
    refute_includes error.message, "\n"
  end

  def test_a_user_who_is_not_root_is_told_to_use_sudo
    assert_match(/: sudo apt-get install -y gcc/, deps(root: false).message([BuildDeps::COMPILER]))
  end

  def test_nothing_missing_passes
    %w[gcc make].each { |p| program(p) }
    %w[openssl/ssl.h yaml.h zlib.h ffi.h].each { |h| header(h) }
    assert_nil deps.check!(deps.required(version: "3.3.8", jemalloc: false, tarball: "ruby.tar.gz"))
  end

  def test_what_is_required_depends_on_version_tarball_and_jemalloc
    packages = ->(**o) { deps.required(**o).map(&:package) }
    assert_includes packages.call(version: "3.1.2", jemalloc: false), "libreadline-dev"
    refute_includes packages.call(version: "3.3.8", jemalloc: false), "libreadline-dev"
    assert_includes packages.call(version: "3.3.8", jemalloc: true), "libjemalloc-dev"
    assert_includes packages.call(version: "3.3.8", jemalloc: false, tarball: "r.tar.xz"), "xz-utils"
    refute_includes packages.call(version: "3.3.8", jemalloc: false), "xz-utils"
  end
end
