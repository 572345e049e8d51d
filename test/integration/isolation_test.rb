require "test_helper"
require "support/sockets"

# What rubyrig opens to other users of the machine and hands to the processes it measures: servers
# listen on 127.0.0.1 only (redis-server on no TCP port at all: test/integration/redis_server_test.rb),
# results follow the user's umask and are never world-writable, and measured processes get only the
# documented environment, never a secret of rubyrig's own that the experiment did not pass on.
class IsolationTest < Minitest::Test
  include SlowTest

  SECRETS = {"AWS_SECRET_ACCESS_KEY" => "secret-aws-value", "GITHUB_TOKEN" => "secret-github-value",
             "DATABASE_PASSWORD" => "secret-db-value", "JAVA_TOOL_OPTIONS" => "-Dsecret.jvm.value=1"}.freeze

  def experiment(dir, extra = "")
    write(dir, "bench.rb", "puts ENV.keys.sort\nFile.write(File.join(__dir__, \"made-by-workload.txt\"), \"x\") rescue nil\n")
    write(dir, "exp.yml", <<~YAML)
      runtimes: [system]
      workloads:
        - command: [/usr/bin/env]
        - script: bench.rb
      batches: 1
      seed: 1
      #{extra}
    YAML
  end

  def test_measured_processes_get_only_the_documented_environment
    dir = tmpdir
    run = File.join(dir, "run")
    exp = experiment(dir, "inherit_env: [RUBYRIG_TEST_*]")
    pid = spawn_rubyrig("run", exp, "--results", run, "--inherit-env", "PASSED_BY_FLAG", dir: dir,
      env: SECRETS.merge("RUBYRIG_TEST_PASSED" => "by-file", "PASSED_BY_FLAG" => "by-flag"))
    Process.wait(pid)
    assert $?.success?, Rubyrig::Processes::TextFile.read(File.join(dir, "rubyrig.err"))
    outputs = Dir.glob(File.join(run, "artifacts", "*", "stdout.log")).map { |f| Rubyrig::Processes::TextFile.read(f) }
    assert_equal 2, outputs.size
    env_output, ruby_keys = outputs.partition { |o| o.include?("=") }.map(&:first)
    SECRETS.each_value { |value| refute_includes env_output, value }
    SECRETS.each_key { |name| refute_includes ruby_keys.lines.map(&:chomp), name }
    assert_includes env_output, "RUBYRIG_TEST_PASSED=by-file\n"
    assert_includes env_output, "PASSED_BY_FLAG=by-flag\n"
    names = env_output.lines.map { |l| l.split("=", 2).first } + ruby_keys.lines.map(&:chomp)
    unexpected = names.uniq.reject do |name|
      Rubyrig::Processes::InheritedEnv.passed?(name, %w[RUBYRIG_TEST_* PASSED_BY_FLAG]) || name.start_with?("RUBYRIG_PROBE_") ||
        %w[RUBYOPT RUBYRIG_PARAMS RUBYRIG_ITERATIONS RUBYRIG_WARMUP RUBYRIG_CONTAINMENT].include?(name)
    end
    assert_empty unexpected, "only the documented variables (docs/experiment-format.md) reach a measured process"
    assert_equal %w[RUBYRIG_TEST_* PASSED_BY_FLAG], JSON.parse(Rubyrig::Processes::TextFile.read(File.join(run, "run.json"))).dig("experiment", "inherit_env")
    refute_includes Rubyrig::Processes::TextFile.read(File.join(run, "run.json")), "by-file", "names are recorded, values never"
  end

  def test_results_follow_the_umask_and_nothing_is_world_writable
    {0o022 => 0o022, 0o077 => 0o077, 0o000 => 0o002}.each do |umask, effective|
      dir = tmpdir
      run = File.join(dir, "run")
      pid = Process.spawn(ENV.to_h.merge("RUBYRIG_CACHE_DIR" => cache_dir), RbConfig.ruby, RubyrigTest::EXE, "run", experiment(dir),
        "--results", run, out: File.join(dir, "out"), err: File.join(dir, "err"), umask: umask)
      Process.wait(pid)
      assert $?.success?, Rubyrig::Processes::TextFile.read(File.join(dir, "err"))
      entries = Dir.glob(File.join(run, "**", "*"), File::FNM_DOTMATCH).reject { |p| p.end_with?("/.") } + [File.join(dir, "made-by-workload.txt")]
      assert_operator entries.size, :>, 15
      loose = entries.reject { |path| File.lstat(path).mode & effective == 0 }
      assert_empty loose.map { |p| format("%o %s", File.lstat(p).mode & 0o777, p) }, format("umask %03o: every file and folder within it", umask)
      assert_equal 0o600, File.stat(File.join(run, "trials.jsonl")).mode & 0o700, "the user reads and writes the trials"
      assert_equal 0o777 & ~effective, File.stat(File.join(run, "artifacts")).mode & 0o777, "folders are made with the umask alone"
    end
  end

  def test_puma_listens_on_127_0_0_1_only
    dir = tmpdir
    run = File.join(dir, "run")
    exp = write(dir, "http.yml", <<~YAML)
      runtimes: [system]
      workloads:
        - builtin: rack-hello
          params: {processes: 2, threads: 2}
          duration_s: 4
          warmup_s: 0
      batches: 1
    YAML
    pid = spawn_rubyrig("run", exp, "--results", run, dir: dir)
    listeners = wait_for(timeout_s: 300) do
      found = Sockets.listening(processes_mentioning(run)).select { |l| l.kind.start_with?("tcp") }
      found unless found.empty?
    end
    assert_equal [["tcp", "127.0.0.1"]], listeners.map { |l| [l.kind, l.address] }.uniq
    _, status = Process.wait2(pid)
    pid = nil
    assert status.success?, Rubyrig::Processes::TextFile.read(File.join(dir, "rubyrig.err"))
  ensure
    if pid
      Process.kill("KILL", -pid)
      Process.wait(pid)
    end
  end

  def test_stub_endpoints_listen_on_127_0_0_1_only
    stubs = Rubyrig::Services::StubEndpoints.new(dir: File.join(tmpdir, "stubs")).start
    listeners = Sockets.listening([stubs.pid])
    assert_equal 3, listeners.size
    assert_equal [["tcp", "127.0.0.1"]], listeners.map { |l| [l.kind, l.address] }.uniq
  ensure
    stubs&.stop
  end
end
