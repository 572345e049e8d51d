require "test_helper"

# A missing or old Java is refused before anything is downloaded (runs the real java probe).
class DebianJrubyIntegrationTest < Minitest::Test
  include SlowTest

  def test_a_missing_or_old_java_is_refused_before_anything_is_downloaded
    dir = tmpdir
    java = write(dir, "java", "#!/bin/sh\necho 'openjdk version \"17.0.2\"' >&2\n")
    File.chmod(0o755, java)
    progress = Rubyrig::Runtimes::BuildProgress.new(io: StringIO.new, tty: false)
    log = Rubyrig::Runtimes::BuildLog.new(path: File.join(dir, "log"), progress: progress, env: {})
    installer = Rubyrig::Runtimes::DebianJruby.new(name: "jruby-10", cache_dir: dir, log: log, progress: progress, java: java)
    error = assert_raises(Rubyrig::BuildError) { installer.install }
    assert_match(/jruby-10 needs Java 21 or later, but .* is Java 17; .*use jruby-9.4/, error.message)
    refute File.exist?(File.join(dir, "apt")), "no apt state before the Java check passes"
    installer = Rubyrig::Runtimes::DebianJruby.new(name: "jruby-9.4", cache_dir: dir, log: log, progress: progress, env: {"PATH" => dir + "/none"})
    assert_match(/no java is on PATH: install default-jre-headless/, assert_raises(Rubyrig::BuildError) { installer.install }.message)
  end
end
