# Shared setup for rubyrig's tests: load path, minitest, temporary directories and a CLI runner.
$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "rubyrig"
require "minitest/autorun"
require "tmpdir"
require "stringio"
require "json"
require "csv"
require "support/slowest"

module RubyrigTest
  ROOT = File.expand_path("..", __dir__)
  EXE = File.join(ROOT, "exe", "rubyrig")

  # Runs the CLI in this process and returns [status, stdout, stderr].
  def run_cli(*args, env: {})
    # UTF-8 buffers, as a terminal would be, whatever the locale's default encoding.
    out = StringIO.new(+"")
    err = StringIO.new(+"")
    cli_env = ENV.to_h.merge("RUBYRIG_CACHE_DIR" => cache_dir).merge(env)
    status = Rubyrig::CLI.new(args, env: cli_env, out: out, err: err).run
    [status, out.string, err.string]
  end

  # A user error as the CLI prints it: the exit status, and one line naming the fix.
  def assert_one_line_error(status, err, pattern, expected_status: 1)
    assert_equal expected_status, status
    assert_match(pattern, err)
    assert_equal 1, err.lines.size, "one line, no backtrace: #{err}"
    assert err.start_with?("rubyrig: error: ")
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

  # Pids of live processes whose environment mentions `marker` (e.g. a run directory): the measured
  # processes carry RUBYRIG_PROBE_DIR=<run>/artifacts/..., so survivors of a run can be found.
  def processes_mentioning(marker)
    Dir.glob("/proc/[0-9]*").filter_map do |dir|
      pid = File.basename(dir).to_i
      next if pid == Process.pid
      next unless File.binread("#{dir}/environ").include?(marker)
      next if File.binread("#{dir}/stat").split(") ").last.start_with?("Z")
      pid
    rescue Errno::ENOENT, Errno::ESRCH, Errno::EACCES # exited meanwhile, or not ours to read
      nil
    end
  end

  # Spawns exe/rubyrig as a real process (own process group), with output to files in dir.
  def spawn_rubyrig(*args, dir:, env: {})
    Process.spawn(ENV.to_h.merge("RUBYRIG_CACHE_DIR" => cache_dir).merge(env), RbConfig.ruby, EXE, *args,
      out: File.join(dir, "rubyrig.out"), err: File.join(dir, "rubyrig.err"), pgroup: true)
  end

  # Polls until the block returns a truthy value, and returns it: synchronisation by what a test can
  # see, never by a sleep. timeout_s only keeps a broken run from hanging; message says what failed.
  def wait_for(timeout_s: 60, interval_s: 0.1, message: "condition")
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout_s
    until (result = yield)
      flunk "#{message} not met within #{timeout_s} s" if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      sleep interval_s
    end
    result
  end

  def trial_lines(run_dir)
    file = File.join(run_dir, "trials.jsonl")
    File.exist?(file) ? Rubyrig::Processes::TextFile.each_line(file).map { |l| JSON.parse(l) } : []
  end

  # The runtime spec of CRuby 3.3.8 for tests that need a second version: "3.3.8" once
  # `rubyrig build 3.3.8` has run (bin/setup does it), or RUBYRIG_TEST_RUBY33 (a path). Missing, the
  # test is skipped on a developer machine and fails in CI, where bin/setup must have built it.
  def ruby33
    @ruby33 ||= begin
      catalog = Rubyrig::Runtimes::Catalog.new(
        discovery: Rubyrig::Runtimes::Discovery.new(env: ENV.to_h, cache_dir: cache_dir),
        fingerprint: Rubyrig::Runtimes::Fingerprint.new(cache_dir: cache_dir)
      )
      catalog.resolve("3.3.8")
      "3.3.8"
    rescue Rubyrig::RuntimeSpecError
      ENV["RUBYRIG_TEST_RUBY33"] || needs(false, "CRuby 3.3.8 is not built; run `exe/rubyrig build 3.3.8` (bin/setup does)")
    end
  end

  # For what bin/setup installs (a tool, a build, root): without it the test is skipped on a developer
  # machine and fails in CI, so that CI can never pass by skipping.
  def needs(condition, message)
    return if condition
    ENV["CI"] ? flunk("#{message} (CI must have it: bin/setup installs it)") : skip(message)
  end

  # For what only root may do (mount, a PID namespace, a memory cgroup): skipped as a normal user, in
  # CI too, where the same test runs as root first (.ci/run) and then the rest of its file as a user.
  def needs_root(reason)
    skip "needs root: #{reason}" unless Process.euid.zero?
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
# minitest's diff of a failed comparison runs diff(1): in the unit tier it shows expected and actual.
Minitest::Assertions.diff = nil if defined?(RubyrigTest::NoProcesses)
