require "test_helper"

class ProbeTest < Minitest::Test
  include SlowTest

  PROBE = File.join(RubyrigTest::ROOT, "lib/rubyrig/probe/probe.rb")

  def run_probed(*args, env: {})
    dir = tmpdir
    out, err, exit = Rubyrig::Processes::Child.capture(["ruby", "-r#{PROBE}", *args],
      env: {"RUBYRIG_PROBE_DIR" => dir, "RUBYOPT" => nil}.merge(env))
    assert exit.success?, err
    [out, Dir.glob(File.join(dir, "probe-*.json")).map { |f| Rubyrig::Processes::TextFile.json(f) }]
  end

  def test_reports_facts_without_touching_stdout
    out, probes = run_probed("-e", "print 'only this'; GC.start")
    assert_equal "only this", out
    assert_equal 1, probes.size
    facts = probes.first
    assert_equal "ruby", facts["engine"]
    assert_equal RUBY_DESCRIPTION.sub(" +YJIT", ""), facts["description"].sub(" +YJIT", "")
    assert_equal false, facts["yjit_enabled"]
    assert_nil facts["allocator"], "not read unless a variant expects one"
    assert_operator facts.dig("gc", "count"), :>=, 1
    assert_operator facts.dig("memory", "hwm_bytes"), :>=, facts.dig("memory", "rss_bytes")
    refute facts["memory"].key?("pss_bytes"), "PSS only for servers and workers"
    assert_operator facts["probe_load_s"], :>, 0
    assert_operator facts["probe_report_s"], :>, 0
  end

  def test_allocator_and_pss_when_asked
    _, probes = run_probed("-e", "1", env: {"RUBYRIG_PROBE_ALLOCATOR" => "1", "RUBYRIG_PROBE_PSS" => "1"})
    assert_equal "glibc", probes.first["allocator"]
    assert_operator probes.first.dig("memory", "pss_bytes"), :>, 0
  end

  def test_the_loader_takes_the_compiled_probe_and_falls_back_to_its_source
    dir = tmpdir
    interpreter = Rubyrig::Runtimes::Interpreter.new(path: RbConfig.ruby, engine: "ruby", fingerprint: "test-#{Process.pid}")
    binary = Rubyrig::Runtimes::ProbeIseq.new(cache_dir: dir).path_for(interpreter)
    assert File.file?(binary)
    loader = File.join(RubyrigTest::ROOT, "lib/rubyrig/probe/loader.rb")
    [binary, File.join(dir, "missing.bin")].each do |iseq|
      probe_dir = tmpdir
      _, err, exit = Rubyrig::Processes::Child.capture(["ruby", "-r#{loader}", "-r#{PROBE}", "-e", "1"],
        env: {"RUBYRIG_PROBE_DIR" => probe_dir, "RUBYRIG_PROBE_ISEQ" => iseq, "RUBYOPT" => nil})
      assert exit.success?, err
      assert_equal 1, Dir.glob(File.join(probe_dir, "probe-*.json")).size, "one report, the probe loaded once (#{iseq})"
    end
  end

  # The extras load at their first use: from their instructions beside the probe's, else their source.
  def test_the_extras_load_when_first_needed_from_their_instructions_or_their_source
    interpreter = Rubyrig::Runtimes::Interpreter.new(path: RbConfig.ruby, engine: "ruby", fingerprint: "test-#{Process.pid}")
    binary = Rubyrig::Runtimes::ProbeIseq.new(cache_dir: tmpdir).path_for(interpreter)
    loader = File.join(RubyrigTest::ROOT, "lib/rubyrig/probe/loader.rb")
    script = "a = defined?(RubyrigProbe.escape); b = RubyrigProbe.string(\"\\n\"); print [a.inspect, b, $LOADED_FEATURES.grep(/extras/).size].join(' ')"
    {binary => "nil \"\\n\" 0", File.join(tmpdir, "missing.bin") => "nil \"\\n\" 1"}.each do |iseq, expected|
      out, err, exit = Rubyrig::Processes::Child.capture(["ruby", "-r#{loader}", "-e", script],
        env: {"RUBYRIG_PROBE_ISEQ" => iseq, "RUBYOPT" => nil})
      assert exit.success?, err
      assert_equal expected, out
    end
  end

  # The probe's cost counts from the loader's first line: the clock starts before the loader reads and
  # evaluates the compiled instructions, so their load is in probe_load_s.
  def test_the_probes_clock_starts_before_the_loader_evaluates_the_instructions
    binary = File.join(tmpdir, "marked.bin")
    File.binwrite(binary, RubyVM::InstructionSequence.compile(<<~RUBY).to_binary)
      RubyrigTestEvaluatedAt = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      module RubyrigProbe
        LOADED_AT = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      end
    RUBY
    loader = File.join(RubyrigTest::ROOT, "lib/rubyrig/probe/loader.rb")
    out, err, exit = Rubyrig::Processes::Child.capture(["ruby", "-r#{loader}", "-e", "print RubyrigProbe::STARTED_AT <= RubyrigTestEvaluatedAt"],
      env: {"RUBYRIG_PROBE_ISEQ" => binary, "RUBYOPT" => nil})
    assert exit.success?, err
    assert_equal "true", out
  end

  # As the script driver runs a script: the harness on the command line, which Ruby loads before the
  # loader that RUBYOPT names, so the harness must go through the loader too.
  def test_the_harness_and_the_loader_in_rubyopt_load_the_probe_once
    dir = tmpdir
    interpreter = Rubyrig::Runtimes::Interpreter.new(path: RbConfig.ruby, engine: "ruby", fingerprint: "test-#{Process.pid}")
    binary = Rubyrig::Runtimes::ProbeIseq.new(cache_dir: dir).path_for(interpreter)
    loader = File.join(RubyrigTest::ROOT, "lib/rubyrig/probe/loader.rb")
    harness = File.join(RubyrigTest::ROOT, "lib/rubyrig/probe/harness.rb")
    probe_dir = tmpdir
    _, err, exit = Rubyrig::Processes::Child.capture(["ruby", "-r#{harness}", "-e", "1"],
      env: {"RUBYRIG_PROBE_DIR" => probe_dir, "RUBYRIG_PROBE_ISEQ" => binary, "RUBYOPT" => "-r#{loader}"})
    assert exit.success?, err
    assert_empty err, "the probe was loaded twice"
    assert_equal 1, Dir.glob(File.join(probe_dir, "probe-*.json")).size
  end

  def test_sees_yjit_jemalloc_and_requested_env
    jemalloc = Rubyrig::Runtimes::Jemalloc.new
    needs(jemalloc.path, "libjemalloc is not installed")
    _, probes = run_probed("--yjit", "-e", "1",
      env: {"LD_PRELOAD" => jemalloc.path, "RUBY_MN_THREADS" => "1", "RUBYRIG_PROBE_ENV_KEYS" => "RUBY_MN_THREADS",
            "RUBYRIG_PROBE_ALLOCATOR" => "1"})
    facts = probes.first
    assert_equal true, facts["yjit_enabled"]
    assert_equal "jemalloc", facts["allocator"]
    assert_equal({"RUBY_MN_THREADS" => "1"}, facts["env"])
    assert_kind_of Hash, facts["yjit"]
  end

  def test_every_forked_process_writes_its_own_file
    _, probes = run_probed("-e", "pid = fork { exit 0 }; Process.wait(pid)")
    assert_equal 2, probes.size
    assert_equal 2, probes.map { |p| p["pid"] }.uniq.size
  end

  def test_encodes_awkward_strings_as_valid_json
    encoded = `ruby -r#{PROBE} -e 'print RubyrigProbe.extra(:encode, "q" => "a\\"b\\\\c\\n\\u0001\\u00e9", "f" => 1.0/0)'`
    assert_equal({"q" => "a\"b\\c\n\u0001é", "f" => nil}, JSON.parse(encoded.force_encoding(Encoding::UTF_8)))
  end

  # The report is written as JSON text a member at a time: strings that need escapes go through the extras.
  def test_the_report_holds_awkward_names_and_values_exactly
    name = "a \"quoted\"\tname\\ \u00e9"
    _, probes = run_probed("-e", "$0 = #{name.inspect}; RubyrigProbe.record(:seen, [1.5, nil, #{name.inspect}])",
      env: {"RUBYRIG_PROBE_ENV_KEYS" => "RUBYRIG_TEST_AWKWARD,RUBYRIG_TEST_UNSET", "RUBYRIG_TEST_AWKWARD" => "x\\y\"z"})
    facts = probes.first
    assert_equal name, facts["program"]
    assert_equal({"RUBYRIG_TEST_AWKWARD" => "x\\y\"z", "RUBYRIG_TEST_UNSET" => nil}, facts["env"])
    assert_equal [1.5, nil, name], facts["seen"]
    assert_nil facts["yjit"], "YJIT's statistics only where YJIT is on"
  end

  def test_a_forked_child_counts_its_own_gc_and_forgets_the_parents_records
    _, probes = run_probed("-e", <<~RUBY)
      RubyrigProbe.record(:bench, "iterations_s" => [1.0])
      30.times { GC.start }
      pid = fork { 2.times { GC.start } }
      Process.wait(pid)
    RUBY
    child = probes.find { |p| probes.any? { |q| q["pid"] == p["ppid"] } }
    parent = (probes - [child]).first
    assert_operator parent.dig("gc", "count"), :>=, 30
    assert_operator child.dig("gc", "count"), :<, 10, "the child's GC since the fork, not the parent's 30 and more"
    assert_operator child.dig("gc", "count"), :>=, 2
    assert parent.key?("bench")
    refute child.key?("bench"), "the parent's bench record is the parent's"
  end

  def test_a_process_killed_before_its_exit_has_left_its_boot_facts
    dir = tmpdir
    child = Rubyrig::Processes::Child.spawn(["ruby", "-r#{PROBE}", "-e", "sleep 30"],
      env: {"RUBYRIG_PROBE_DIR" => dir, "RUBYRIG_PROBE_EARLY" => "1", "RUBYOPT" => nil})
    boot = File.join(dir, "probe-#{child.pid}.boot.json")
    wait_for(timeout_s: 20) { File.exist?(boot) }
    child.signal_group("KILL")
    child.wait(timeout_s: 10)
    facts = Rubyrig::Processes::TextFile.json(boot)
    assert_equal true, facts["boot_only"]
    assert_equal "ruby", facts["engine"]
    assert_equal false, facts["yjit_enabled"]
    refute File.exist?(File.join(dir, "probe-#{child.pid}.json")), "no exit report from a killed process"
  end

  def test_mn_threads_are_checked_from_inside_the_process
    ruby = File.join(cache_dir, "rubies", "3.3.8", "bin", "ruby")
    needs(File.executable?(ruby), "CRuby 3.3.8 is not built")
    on = probe_with(ruby, "RUBY_MN_THREADS" => "1")
    off = probe_with(ruby, {})
    assert_equal true, on["mn_active"]
    assert_equal false, off["mn_active"]
  end

  def probe_with(ruby, env)
    dir = tmpdir
    _, err, exit = Rubyrig::Processes::Child.capture([ruby, "-r#{PROBE}", "-e", "1"],
      env: {"RUBYRIG_PROBE_DIR" => dir, "RUBYRIG_PROBE_MN" => "1", "RUBYOPT" => nil}.merge(env))
    assert exit.success?, err
    Rubyrig::Processes::TextFile.json(Dir.glob(File.join(dir, "probe-*.json")).first)
  end
end
