# Tests the pure parts of installing Debian's JRuby beside the system: which releases exist, the Java
# version check, which dependencies are downloaded, and the relocation of Debian's absolute jar paths.
require "test_helper"

class DebianJrubyTest < Minitest::Test
  DebianJruby = Rubyrig::Runtimes::DebianJruby

  def test_releases_name_their_suite_and_the_java_they_need
    assert_equal "trixie", DebianJruby.release("jruby-9.4").suite
    assert_equal 21, DebianJruby.release("jruby-10").java
    error = assert_raises(Rubyrig::UsageError) { DebianJruby.release("jruby-9") }
    assert_match(/did you mean 'jruby-9.4'/, error.message)
  end

  def test_java_major_reads_old_and_new_version_strings
    assert_equal 17, DebianJruby.java_major(%(openjdk version "17.0.15" 2025-04-15\n))
    assert_equal 8, DebianJruby.java_major(%(openjdk version "1.8.0_402"\n))
    assert_equal 21, DebianJruby.java_major(%(java version "21" 2023-09-19 LTS\n))
    assert_nil DebianJruby.java_major("no java here")
  end

  def test_dependencies_leave_out_the_java_runtime_versions_and_alternatives
    field = "default-jre-headless, libasm-java (>= 9.5), libjffi-jni (>= 1.3.11), libjansi1-java | libjansi-java, " \
      "openjdk-17-jre-headless, java8-runtime-headless"
    assert_equal %w[libasm-java libjffi-jni libjansi1-java], DebianJruby.dependencies(field)
  end

  def test_relocation_points_absolute_jar_loads_into_the_private_tree
    text = %(require 'psych.jar'\n\nload '/usr/share/java/snakeyaml-engine.jar'\nload "/usr/share/java/bcprov.jar"\n)
    relocated = DebianJruby.relocate(text, "/cache/rubies/jruby-9.4")
    assert_includes relocated, "load '/cache/rubies/jruby-9.4/usr/share/java/snakeyaml-engine.jar'"
    assert_includes relocated, %(load "/cache/rubies/jruby-9.4/usr/share/java/bcprov.jar")
    refute_includes relocated, "'/usr/share/java/"
  end
end
