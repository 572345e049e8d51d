# Shared setup for rubyrig's tests: load path, minitest, temporary directories and a CLI runner.
$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "rubyrig"
require "minitest/autorun"
require "tmpdir"
require "stringio"
require "json"

module RubyrigTest
  ROOT = File.expand_path("..", __dir__)
  EXE = File.join(ROOT, "exe", "rubyrig")

  # Runs the CLI in this process and returns [status, stdout, stderr].
  def run_cli(*args, env: {})
    out = StringIO.new
    err = StringIO.new
    cli_env = ENV.to_h.merge("RUBYRIG_CACHE_DIR" => cache_dir).merge(env)
    status = Rubyrig::CLI.new(args, env: cli_env, out: out, err: err).run
    [status, out.string, err.string]
  end

  # The shared cache, so that fingerprints, builds and gem sets are reused across tests.
  def cache_dir
    ENV.fetch("RUBYRIG_CACHE_DIR") { File.join(Dir.home, ".cache", "rubyrig") }
  end

  def tmpdir
    @tmpdirs ||= []
    dir = Dir.mktmpdir("rubyrig-test")
    @tmpdirs << dir
    dir
  end

  def teardown
    (@tmpdirs || []).each { |d| FileUtils.rm_rf(d) }
    super
  end

  def write(dir, name, text)
    path = File.join(dir, name)
    FileUtils.mkdir_p(File.dirname(path))
    File.write(path, text)
    path
  end
end

# Included by tests that start real interpreters, servers or load generators. They always run in CI;
# RUBYRIG_SKIP_SLOW=1 skips them for a quick local loop.
module SlowTest
  def setup
    skip "slow test skipped (RUBYRIG_SKIP_SLOW=1)" if ENV["RUBYRIG_SKIP_SLOW"] == "1"
    super
  end
end

Minitest::Test.include(RubyrigTest)
