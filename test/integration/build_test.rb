require "test_helper"

# `rubyrig build` on the real cache: 3.3.8 is built once (bin/setup-rubies does it before the suite)
# and a second call is a cache hit; the YJIT and jemalloc builds are checked from inside the process
# by the probe; Ctrl-C during a build stops its processes and installs nothing.
class BuildTest < Minitest::Test
  include SlowTest

  BUILD_TIMEOUT_S = 3 * 3600

  # Runs exe/rubyrig in its own process, like a user would; returns [status, stdout, stderr].
  def rubyrig(*args, timeout_s: BUILD_TIMEOUT_S)
    out, err, exit = Rubyrig::Processes::Child.capture([RbConfig.ruby, EXE, *args], env: {"RUBYRIG_CACHE_DIR" => cache_dir},
      timeout_s: timeout_s)
    [exit.status, out, err]
  end

  def configuring?(log) = File.exist?(log) && Rubyrig::Processes::TextFile.read(log).include?("/configure --prefix")

  # Processes whose working directory is inside dir.
  def processes_in(dir)
    Dir.glob("/proc/[0-9]*/cwd").select do |cwd|
      File.readlink(cwd).start_with?(dir)
    rescue SystemCallError # the process exited while we looked
      false
    end
  end

  def trial_of(dir) = JSON.parse(File.readlines(File.join(dir, "trials.jsonl")).first)

  # A cache hit builds nothing: the installed tree's marker and the build log are left as they were
  # (what keeps a cached build within the issue's 5 s, whatever the machine's load).
  def test_a_second_build_of_3_3_8_is_a_cache_hit
    status, out, err, = rubyrig("build", "3.3.8")
    assert_equal 0, status, err + out
    marker_path = File.join(cache_dir, "rubies", "3.3.8", Rubyrig::Runtimes::Builder::MARKER)
    marker = Rubyrig::Processes::TextFile.json(marker_path)
    assert File.file?(marker["log"]), "the build log must stay in the cache"
    untouched = [marker_path, marker["log"]].to_h { |path| [path, File.mtime(path)] }
    status, out, err, = rubyrig("build", "3.3.8")
    assert_equal 0, status, err + out
    assert_match(/\A3\.3\.8 is already built: ruby 3\.3\.8 /, out)
    assert_equal untouched, untouched.keys.to_h { |path| [path, File.mtime(path)] }, "a cache hit rebuilds and rewrites nothing"
    assert_includes marker["configure_args"], "--enable-yjit"
    status, out, = rubyrig("runtimes", timeout_s: 300)
    assert_equal 0, status
    assert_match(%r{^3\.3\.8\s+ruby\s+3\.3\.8\s+yes\s+preload\s+yes\s+rubyrig\s+#{Regexp.escape(cache_dir)}/rubies/3\.3\.8/bin/ruby$}, out)
  end

  def test_the_3_3_8_build_runs_with_yjit_enabled
    assert_equal 0, run_cli("build", "3.3.8").first
    dir = File.join(tmpdir, "run")
    status, out, err = run_cli("compare", "-r", "3.3.8+yjit", "-b", "1", "--iterations", "2", "--warmup", "1",
      "--param", "steps=500", "--results", dir, "--", "builtin:nbody")
    assert_equal 0, status, err + out
    trial = trial_of(dir)
    assert_equal "ok", trial["status"], trial["reason"]
    assert_equal true, trial.dig("facts", "yjit_enabled")
    assert_match(/\Aruby 3\.3\.8 .*\+YJIT/, trial.dig("facts", "description"))
  end

  def test_the_jemalloc_build_links_jemalloc_without_a_preload
    status, out, err, = rubyrig("build", "3.3.8", "--jemalloc")
    assert_equal 0, status, err + out
    dir = File.join(tmpdir, "run")
    status, out, err = run_cli("compare", "-r", "3.3.8-jemalloc", "-b", "1", "--iterations", "2", "--warmup", "0",
      "--param", "objects=20000", "--results", dir, "--", "builtin:alloc-churn")
    assert_equal 0, status, err + out
    runtime = Rubyrig::Processes::TextFile.json(File.join(dir, "run.json")).dig("runtimes", "3.3.8-jemalloc")
    assert_equal true, runtime.dig("interpreter", "jemalloc_linked")
    assert_match(/--with-jemalloc/, runtime.dig("interpreter", "configure_args"))
    refute runtime["env"].key?("LD_PRELOAD"), "a linked jemalloc needs no preload"
    trial = trial_of(dir)
    assert_equal "ok", trial["status"], trial["reason"]
    assert_equal "jemalloc", trial.dig("facts", "allocator")
  end

  # A tarball declares nothing, so its build checks the programs and headers it needs (a build from
  # Debian's source package installs what the package declares instead: debian_source_test.rb).
  def test_missing_build_tools_for_a_tarball_are_listed_with_the_apt_command_before_anything_runs
    name = "rubyrig-test-no-tools"
    empty = File.join(tmpdir, "empty")
    tarball = write(empty, "ruby-3.3.8.tar.xz", "")
    status, out, err = run_cli("build", "3.3.8", "--name", name, "--source", tarball, env: {"PATH" => empty})
    assert_equal Rubyrig::CLI::EXIT_ERROR, status, out
    assert_match(/\Arubyrig: error: missing build dependencies: gcc \(gcc: C compiler\), make \(make: runs the build\), /, err)
    assert_match(/install them with: (sudo )?apt-get install -y gcc make xz-utils$/, err)
    assert_equal 1, err.lines.size, err
    refute File.exist?(File.join(cache_dir, "rubies", name))
  ensure
    FileUtils.rm_rf(File.join(cache_dir, "builds", name))
    FileUtils.rm_f(File.join(cache_dir, "builds", "#{name}.lock"))
  end

  def test_a_source_tarball_without_the_bundled_gems_is_refused_before_configure
    tarball = Dir.glob(File.join(cache_dir, "sources", "ruby3.3_3.3.8.orig.tar.xz")).first
    needs(tarball, "Debian's ruby3.3 orig tarball is not in the cache; run bin/setup-rubies")
    name = "rubyrig-test-tarball"
    status, out, err = run_cli("build", "3.3.8", "--name", name, "--source", tarball)
    assert_equal Rubyrig::CLI::EXIT_ERROR, status, out
    assert_match(/from tarball #{Regexp.escape(tarball)}/, out + err)
    assert_match(/lacks the bundled gem files \(gems\/\S+\.gem.*\), so `make install` would try to download them/, err)
    refute_match(/configure:/, err)
    refute File.exist?(File.join(cache_dir, "rubies", name))
  ensure
    FileUtils.rm_rf(File.join(cache_dir, "builds", name))
    FileUtils.rm_f(File.join(cache_dir, "builds", "#{name}.lock"))
  end

  def test_ctrl_c_stops_the_build_and_installs_nothing
    name = "rubyrig-test-interrupted"
    work = File.join(cache_dir, "builds", name)
    log = File.join(work, "build.log")
    FileUtils.rm_rf(work)
    child = Rubyrig::Processes::Child.spawn([RbConfig.ruby, EXE, "build", "3.3.8", "--name", name],
      env: {"RUBYRIG_CACHE_DIR" => cache_dir})
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 600
    sleep 0.2 until configuring?(log) || child.exited? || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
    refute child.exited?, "the build ended before configure: #{File.exist?(log) && Rubyrig::Processes::TextFile.read(log)[-500..]}"
    sleep 1
    Process.kill("INT", child.pid)
    exit = child.wait(timeout_s: 30)
    refute_nil exit, "rubyrig did not stop within 30 s of SIGINT"
    assert_equal Rubyrig::CLI::EXIT_INTERRUPTED, exit.status
    assert_empty processes_in(work), "build processes survived Ctrl-C"
    refute File.exist?(File.join(cache_dir, "rubies", name)), "an interrupted build must not install anything"
  ensure
    child&.stop
    FileUtils.rm_rf(work) if work
    FileUtils.rm_f(File.join(cache_dir, "builds", "#{name}.lock")) if name
  end
end
