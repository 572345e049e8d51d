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

  def test_a_missing_or_old_java_is_refused_before_anything_is_downloaded
    dir = tmpdir
    java = write(dir, "java", "#!/bin/sh\necho 'openjdk version \"17.0.2\"' >&2\n")
    File.chmod(0o755, java)
    progress = Rubyrig::Runtimes::BuildProgress.new(io: StringIO.new, tty: false)
    log = Rubyrig::Runtimes::BuildLog.new(path: File.join(dir, "log"), progress: progress, env: {})
    installer = DebianJruby.new(name: "jruby-10", cache_dir: dir, log: log, progress: progress, java: java)
    error = assert_raises(Rubyrig::BuildError) { installer.install }
    assert_match(/jruby-10 needs Java 21 or later, but .* is Java 17; .*use jruby-9.4/, error.message)
    refute File.exist?(File.join(dir, "apt")), "no apt state before the Java check passes"
    installer = DebianJruby.new(name: "jruby-9.4", cache_dir: dir, log: log, progress: progress, env: {"PATH" => dir + "/none"})
    assert_match(/no java is on PATH: install default-jre-headless/, assert_raises(Rubyrig::BuildError) { installer.install }.message)
  end
end
