# Tests a workload's prepare step with a real process: its environment (the runtime's interpreter
# first on PATH, the gem set, the driver's additions), its directory and log, and the one-line failure.
require "test_helper"

class PrepareStepTest < Minitest::Test
  include SlowTest

  def step(argv, dir)
    runtime = Rubyrig::Experiment::Runtime.parse("system")
    interpreter = Rubyrig::Runtimes::Interpreter.new(name: "system", path: RbConfig.ruby, engine: "ruby", version: RUBY_VERSION)
    launch = Rubyrig::Runtimes::Launch.compose(runtime, interpreter, jemalloc: nil)
    workload = Rubyrig::Experiment::Workload.new(name: "app", kind: "command", prepare: argv)
    Rubyrig::Runtimes::PrepareStep.new(workload: workload, launch: launch, bundle_env: {"BUNDLE_GEMFILE" => "/gems/Gemfile"},
      driver_env: {"RAILS_ENV" => "production"}, chdir: dir, log_path: File.join(dir, "prepare", "app--system.log"))
  end

  def test_runs_in_the_workloads_directory_with_the_runtimes_environment
    dir = tmpdir
    write(dir, "bin/setup", "#!/bin/sh\necho \"$PWD $RAILS_ENV $BUNDLE_GEMFILE $1\"\ncommand -v ruby\n")
    File.chmod(0o755, File.join(dir, "bin/setup"))
    assert_operator step(%w[bin/setup now], dir).run, :>=, 0
    log = Rubyrig::Processes::TextFile.read(File.join(dir, "prepare", "app--system.log"))
    assert_includes log, "$ bin/setup now  (in #{dir}, runtime system)"
    assert_includes log, "#{File.realpath(dir)} production /gems/Gemfile now"
    assert_includes log, File.join(File.dirname(RbConfig.ruby), "ruby"), "the runtime's interpreter comes first on PATH"
  end

  def test_a_failure_is_one_line_naming_the_step_and_its_log
    dir = tmpdir
    error = assert_raises(Rubyrig::BuildError) { step(["sh", "-c", "echo broken >&2; exit 3"], dir).run }
    assert_equal "the prepare step `sh -c echo broken >&2; exit 3` of app failed for runtime system (exited with status 3); " \
      "see #{File.join(dir, "prepare", "app--system.log")}", error.message
    assert_includes Rubyrig::Processes::TextFile.read(File.join(dir, "prepare", "app--system.log")), "broken"
    error = assert_raises(Rubyrig::BuildError) { step(["no-such-program"], dir).run }
    assert_match(/the prepare step `no-such-program` of app failed for runtime system \(cannot run no-such-program/, error.message)
  end
end
