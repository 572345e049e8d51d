require "test_helper"

class DebianControlTest < Minitest::Test
  Control = Rubyrig::Runtimes::DebianControl

  DSC = <<~TEXT
    Format: 3.0 (quilt)
    Source: ruby9.9
    Build-Depends: bison, debhelper-compat (= 13), libgdbm-dev,
     netbase <!nocheck>, pkg-config (>= 1.8.0-7~), ruby9.9:native <cross>,
     systemtap-sdt-dev [linux-any], libfoo-dev [!amd64], gcc-x [i386 arm64] | gcc-y,
     libedit-dev | libreadline-dev, stage-tool <!stage1 !nocheck> <pkg.ruby.extra>
    Build-Depends-Indep: doxygen
    Package-List:
     ruby9.9 deb ruby optional arch=any
  TEXT

  def relations = Control.parse(Control.field(DSC, "Build-Depends"))

  def test_a_field_joins_its_continuation_lines_and_stops_at_the_next_field
    value = Control.field(DSC, "Build-Depends")
    assert value.start_with?("bison, debhelper-compat (= 13)")
    assert value.end_with?("<pkg.ruby.extra>")
    assert_equal "doxygen", Control.field(DSC, "build-depends-indep")
    assert_nil Control.field(DSC, "Build-Conflicts")
  end

  def test_alternatives_keep_versions_architectures_and_profiles
    pkg = relations.flatten.find { |a| a.name == "pkg-config" }
    assert_equal ">= 1.8.0-7~", pkg.version
    cross = relations.flatten.find { |a| a.name == "ruby9.9" }
    assert_equal [["cross"]], cross.profiles
    gcc = relations.find { |r| r.size == 2 && r.first.name == "gcc-x" }
    assert_equal %w[i386 arm64], gcc.first.architectures
    assert_equal "gcc-y", gcc.last.name
    staged = relations.flatten.find { |a| a.name == "stage-tool" }
    assert_equal [%w[!stage1 !nocheck], %w[pkg.ruby.extra]], staged.profiles
  end

  def test_packages_for_amd64_without_tests
    packages = Control.packages(relations, arch: "amd64", profiles: %w[nocheck])
    assert_equal %w[bison debhelper-compat libgdbm-dev pkg-config systemtap-sdt-dev gcc-y libedit-dev], packages
  end

  def test_profiles_and_architectures_change_the_list
    packages = Control.packages(relations, arch: "i386", profiles: %w[cross])
    assert_includes packages, "netbase", "<!nocheck> holds when nocheck is not active"
    assert_includes packages, "ruby9.9", "<cross> holds under the cross profile"
    assert_includes packages, "libfoo-dev", "[!amd64] holds on i386"
    assert_includes packages, "gcc-x", "the first alternative is taken where its architecture matches"
    assert_includes packages, "stage-tool", "either profile group may hold"
    refute_includes Control.packages(relations, arch: "hurd-i386", profiles: []), "systemtap-sdt-dev"
  end

  def test_an_installed_alternative_is_kept
    packages = Control.packages(relations, arch: "amd64", profiles: %w[nocheck], installed: ->(name) { name == "libreadline-dev" })
    assert_includes packages, "libreadline-dev"
    refute_includes packages, "libedit-dev"
  end

  def test_wildcards
    assert Control.wildcard_matches?("any-amd64", "amd64")
    assert Control.wildcard_matches?("linux-any", "arm64")
    refute Control.wildcard_matches?("kfreebsd-any", "amd64")
    assert Control.wildcard_matches?("kfreebsd-any", "kfreebsd-amd64")
  end

  def test_an_unreadable_relation_names_itself
    error = assert_raises(Rubyrig::BuildError) { Control.parse("bison, (>= 2)") }
    assert_match(/'\(>= 2\)'/, error.message)
  end
end
