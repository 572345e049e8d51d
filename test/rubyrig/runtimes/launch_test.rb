require "test_helper"

class LaunchTest < Minitest::Test
  Launch = Rubyrig::Runtimes::Launch

  def interpreter(version: "3.3.8", yjit: true, jemalloc_linked: false, engine: "ruby")
    Rubyrig::Runtimes::Interpreter.new(name: version, path: "/rubies/#{version}/bin/ruby", source: "test",
      engine: engine, version: version, ruby_version: version, description: "ruby #{version}",
      platform: "x86_64-linux", yjit: yjit, jemalloc_linked: jemalloc_linked, configure_args: "",
      fingerprint: "f#{version}").freeze
  end

  def jemalloc(path = "/usr/lib/libjemalloc.so.2")
    Struct.new(:path, :problem).new(path, path ? nil : "no libjemalloc is installed: install it with: apt-get install libjemalloc2")
  end

  def compose(spec, interp = interpreter, lib = jemalloc, **opts)
    Launch.compose(Rubyrig::Experiment::Runtime.parse(spec, **opts), interp, jemalloc: lib)
  end

  def test_yjit_variants_become_flags_and_expectations
    launch = compose("3.3.8+yjit-mem=32+yjit-stats")
    assert_equal ["--yjit", "--yjit-exec-mem-size=32", "--yjit-stats=quiet"], launch.ruby_flags
    assert_equal true, launch.expect["yjit_enabled"]
  end

  def test_runtimes_without_yjit_expect_it_off_so_a_leaked_setting_is_caught
    launch = compose("3.3.8")
    assert_equal false, launch.expect["yjit_enabled"]
    assert_nil launch.env.fetch("RUBY_YJIT_ENABLE")
    assert_nil launch.env.fetch("RUBYOPT")
  end

  def test_yjit_on_an_interpreter_without_it_is_an_error
    e = assert_raises(Rubyrig::RuntimeSpecError) { compose("3.3.8+yjit", interpreter(yjit: false)) }
    assert_match(/has no YJIT/, e.message)
  end

  def test_yjit_mem_needs_a_size
    e = assert_raises(Rubyrig::RuntimeSpecError) { compose("3.3.8+yjit-mem=big") }
    assert_match(/\+yjit-mem=32/, e.message)
  end

  def test_jemalloc_is_preloaded_unless_linked
    assert_equal "/usr/lib/libjemalloc.so.2", compose("3.3.8+jemalloc").env["LD_PRELOAD"]
    assert_nil compose("3.3.8+jemalloc", interpreter(jemalloc_linked: true)).env["LD_PRELOAD"]
    assert_equal "jemalloc", compose("3.3.8+jemalloc").expect["allocator"]
    assert_equal "jemalloc", compose("3.3.8", interpreter(jemalloc_linked: true)).expect["allocator"], "a linked build is checked too"
    refute compose("3.3.8").expect.key?("allocator")
  end

  def test_missing_jemalloc_blocks_the_runtime_with_the_install_hint
    launch = compose("3.3.8+jemalloc", interpreter, jemalloc(nil))
    assert_match(/wants jemalloc, but no libjemalloc is installed: install it with: apt-get install libjemalloc2/, launch.blocker)
  end

  def test_mn_below_three_three_warns
    launch = compose("system+mn", interpreter(version: "3.1.2"))
    assert_equal "1", launch.env["RUBY_MN_THREADS"]
    assert_match(/need CRuby 3.3 or later/, launch.warnings.first)
    assert_empty compose("3.3.8+mn").warnings
  end

  def test_contradictions_compare_probe_facts_with_the_request
    launch = compose("3.3.8+yjit+jemalloc+mn")
    good = {"engine" => "ruby", "engine_version" => "3.3.8", "yjit_enabled" => true, "allocator" => "jemalloc", "env" => {"RUBY_MN_THREADS" => "1"}}
    assert_empty launch.contradictions(good)
    bad = {"yjit_enabled" => false, "allocator" => "glibc", "env" => {"RUBY_MN_THREADS" => nil}}
    problems = launch.contradictions(bad)
    assert_includes problems, "YJIT was requested but is not enabled in the process"
    assert_includes problems, "+jemalloc was requested, but glibc malloc is in use"
    assert_includes problems, "RUBY_MN_THREADS=1 was requested but the process saw nil"
  end

  def test_mn_is_verified_by_what_the_process_did_not_only_by_its_environment
    launch = compose("3.3.8+mn")
    assert_equal true, launch.expect["mn_active"]
    echoed = {"engine" => "ruby", "engine_version" => "3.3.8", "yjit_enabled" => false, "env" => {"RUBY_MN_THREADS" => "1"}}
    assert_empty launch.contradictions(echoed.merge("mn_active" => true))
    assert_includes launch.contradictions(echoed.merge("mn_active" => false)),
      "M:N threads were requested but the process ran one native thread per Ruby thread"
    refute compose("3.3.8+mn", interpreter(version: "3.2.0")).expect.key?("mn_active"), "no M:N before 3.3: a warning instead"
  end

  def test_jruby_has_no_yjit_expectation
    launch = compose("jruby", interpreter(version: "9.3.9.0", yjit: false, engine: "jruby"))
    refute launch.expect.key?("yjit_enabled")
  end

  def test_experiment_env_is_applied_and_verified
    launch = compose("3.3.8", env: {"RUBY_GC_HEAP_GROWTH_FACTOR" => "1.1"})
    assert_equal "1.1", launch.env["RUBY_GC_HEAP_GROWTH_FACTOR"]
    assert_equal ["RUBY_GC_HEAP_GROWTH_FACTOR"], launch.echoed_env_keys
  end

  def test_a_process_of_another_ruby_contradicts_the_runtime
    launch = compose("jruby", interpreter(version: "9.3.9.0", yjit: false, engine: "jruby"))
    problems = launch.contradictions("engine" => "ruby", "engine_version" => "3.1.2", "yjit_enabled" => false)
    assert_equal 1, problems.size
    assert_match(/ran ruby 3\.1\.2 instead of jruby 9\.3\.9\.0/, problems.first)
  end

  def test_the_interpreter_directory_comes_first_on_path_by_default
    assert_equal ["/rubies/3.3.8/bin"], compose("3.3.8").bin_dirs
  end

  def test_yjit_on_jruby_is_refused_with_the_reason
    e = assert_raises(Rubyrig::RuntimeSpecError) { compose("jruby+yjit", interpreter(version: "9.3.9.0", yjit: false, engine: "jruby")) }
    assert_match(/YJIT is CRuby's JIT; JRuby compiles to JVM bytecode on its own, so drop \+yjit/, e.message)
  end
end
