# The probe's native fast path (probe/native/rubyrig_probe.c, built by Runtimes::ProbeNative) in real
# Ruby processes: the same report as the Ruby probe's, the Ruby probe loaded at exit for whatever only
# it writes, a fork's own account, one report when a harness loads the Ruby probe during the run, and a
# measured program's exit left alone when the report cannot be written.
require "test_helper"

class NativeProbeTest < Minitest::Test
  include SlowTest

  LOADER = File.join(RubyrigTest::ROOT, "lib/rubyrig/probe/loader.rb")
  HARNESS = File.join(RubyrigTest::ROOT, "lib/rubyrig/probe/harness.rb")
  # Differ between any two processes: who and when, and the probe's own cost.
  PER_PROCESS = %w[pid ppid started_at_monotonic exited_at_monotonic probe_load_s probe_report_s memory gc].freeze

  def interpreter(path = RbConfig.ruby, engine: "ruby")
    Rubyrig::Runtimes::Interpreter.new(path: path, engine: engine, fingerprint: "test-#{Process.pid}-#{File.basename(path)}")
  end

  def native
    @native ||= Rubyrig::Runtimes::ProbeNative.new(cache_dir: tmpdir).path_for(interpreter).tap do |path|
      needs(path, "the native probe did not build (a compiler and ruby-dev are needed: bin/setup installs them)")
    end
  end

  def iseq
    @iseq ||= Rubyrig::Runtimes::ProbeIseq.new(cache_dir: tmpdir).path_for(interpreter)
  end

  # Runs ruby ARGS with the probe in RUBYOPT (the native one unless native: false), as MeasuredRun sets it.
  def probed(*args, native: true, env: {}, dir: tmpdir)
    probe = native ? {"RUBYOPT" => "-r#{self.native}", "RUBYRIG_PROBE_LOADER" => LOADER} : {"RUBYOPT" => "-r#{LOADER}"}
    out, err, exit = Rubyrig::Processes::Child.capture([RbConfig.ruby, "--disable-gems", *args],
      env: probe.merge("RUBYRIG_PROBE_DIR" => dir, "RUBYRIG_PROBE_ISEQ" => iseq).merge(env))
    reports = Dir.glob(File.join(dir, "probe-*.json")).grep_v(/\.boot\.json\z/).map { |f| Rubyrig::Processes::TextFile.json(f) }
    [reports, err, exit, out]
  end

  def test_builds_once_per_interpreter_and_not_for_jruby_or_a_failed_build
    cache = tmpdir
    builder = Rubyrig::Runtimes::ProbeNative.new(cache_dir: cache)
    path = builder.path_for(interpreter)
    needs(path, "the native probe did not build (a compiler and ruby-dev are needed: bin/setup installs them)")
    assert_equal "rubyrig_probe.so", File.basename(path), "Ruby finds the init function by the file's name"
    built_at = File.mtime(path)
    assert_equal path, builder.path_for(interpreter)
    assert_equal built_at, File.mtime(path), "cached"
    assert_nil builder.path_for(interpreter("/opt/jruby/bin/jruby", engine: "jruby"))
    assert_nil builder.path_for(interpreter("/bin/false")), "an interpreter whose build fails gets the Ruby probe"
  end

  def test_writes_the_report_the_ruby_probe_writes
    fast, err, exit = probed("-e", "GC.start")
    assert exit.success?, err
    slow, = probed("-e", "GC.start", native: false)
    assert_equal slow.first.keys.sort, fast.first.keys.sort
    assert_equal slow.first.except(*PER_PROCESS), fast.first.except(*PER_PROCESS)
    assert_equal slow.first["gc"].keys, fast.first["gc"].keys
    assert_operator fast.first.dig("gc", "count"), :>=, 1
    assert_equal slow.first.dig("memory", "ruby_heap_bytes"), fast.first.dig("memory", "ruby_heap_bytes")
    assert_operator fast.first.dig("memory", "hwm_bytes"), :>=, fast.first.dig("memory", "rss_bytes")
    assert_operator fast.first["probe_load_s"], :<, slow.first["probe_load_s"], "it loads no Ruby code"
  end

  # Records, an awkward program name, echoed variables: the Ruby probe, loaded at exit, writes them.
  def test_what_only_the_ruby_probe_writes_loads_it_at_exit
    name = "a \"quoted\"\tname\\ \u00e9"
    reports, err, exit = probed("-e", "$0 = #{name.inspect}; RubyrigProbe.record(:seen, [1.5, nil])",
      env: {"RUBYRIG_PROBE_ENV_KEYS" => "RUBYRIG_TEST_SEEN", "RUBYRIG_TEST_SEEN" => "x"})
    assert exit.success?, err
    assert_equal 1, reports.size
    facts = reports.first
    assert_equal name, facts["program"]
    assert_equal [1.5, nil], facts["seen"]
    assert_equal({"RUBYRIG_TEST_SEEN" => "x"}, facts["env"])
    assert_operator facts["probe_report_s"], :>, 0
  end

  # YJIT changes the interpreter's description (+YJIT), not the build: the native probe stays, and the
  # Ruby probe, loaded at exit, adds YJIT's statistics.
  def test_a_yjit_process_keeps_the_native_probe_and_reports_yjit
    reports, err, exit, out = probed("--yjit", "-e", "print RubyrigProbe.const_defined?(:NATIVE_LOAD_S)")
    assert exit.success?, err
    assert_equal "true", out
    assert_equal true, reports.first["yjit_enabled"]
    assert_kind_of Hash, reports.first["yjit"]
  end

  def test_a_forked_child_counts_its_own_gc_and_forgets_the_parents_records
    reports, err, exit = probed("-e", <<~RUBY)
      RubyrigProbe.record(:bench, "iterations_s" => [1.0])
      30.times { GC.start }
      pid = fork { 2.times { GC.start } }
      Process.wait(pid)
    RUBY
    assert exit.success?, err
    child = reports.find { |p| reports.any? { |q| q["pid"] == p["ppid"] } }
    parent = (reports - [child]).first
    assert_operator parent.dig("gc", "count"), :>=, 30
    assert_operator child.dig("gc", "count"), :<, 10, "the child's GC since the fork, not the parent's 30 and more"
    assert_operator child.dig("gc", "count"), :>=, 2
    assert_operator child.dig("memory", "ruby_heap_bytes"), :>, 0, "the heap's size, not its growth since the fork"
    assert parent.key?("bench")
    refute child.key?("bench"), "the parent's record is the parent's"
  end

  # A harness given with -r loads the Ruby probe before RUBYOPT's native one, which then stays out of it.
  def test_a_harness_that_loads_the_ruby_probe_leaves_one_report
    reports, err, exit = probed("-r#{HARNESS}", "-e", "RubyrigProbe.record(:seen, 1)")
    assert exit.success?, err
    assert_empty err, "loaded once, no constant defined twice"
    assert_equal 1, reports.size
    assert_equal 1, reports.first["seen"]
  end

  # Only this interpreter can load the build: the programs a measured process starts get the loader,
  # and another CRuby among them starts and reports through the Ruby probe.
  def test_programs_it_starts_get_the_ruby_probes_loader
    other = File.join(cache_dir, "rubies", "3.3.8", "bin", "ruby")
    needs(File.executable?(other), "CRuby 3.3.8 is not built")
    reports, err, exit, out = probed("-e", "puts ENV['RUBYOPT']; system(#{other.inspect}, '-e', '1') or exit 5",
      env: {"RUBYOPT" => "-W0 -r#{native} -W:no-deprecated"})
    assert exit.success?, err
    assert_equal "-W0 -r#{LOADER} -W:no-deprecated", out.strip, "only the build's own token replaced"
    assert_equal [RUBY_VERSION, "3.3.8"].sort, reports.map { |r| r["engine_version"] }.sort
  end

  def test_a_report_it_cannot_write_leaves_the_programs_exit_alone
    reports, err, exit = probed("-e", "exit 3", dir: File.join(tmpdir, "missing"))
    assert_equal 3, exit.status
    assert_empty reports
    assert_match(/rubyrig probe: could not write facts/, err)
  end

  def test_servers_write_their_boot_facts_through_the_ruby_probe
    dir = tmpdir
    reports, err, exit = probed("-e", "1", dir: dir, env: {"RUBYRIG_PROBE_EARLY" => "1"})
    assert exit.success?, err
    assert_equal 1, reports.size
    boot = Rubyrig::Processes::TextFile.json(Dir.glob(File.join(dir, "probe-*.boot.json")).first)
    assert_equal true, boot["boot_only"]
    assert_equal reports.first["started_at_monotonic"], boot["started_at_monotonic"]
  end
end
