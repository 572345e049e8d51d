require "test_helper"

class DiagnosticsTest < Minitest::Test
  def interpreter(version, engine: "ruby")
    Rubyrig::Runtimes::Interpreter.new(name: version, path: "/r/bin/ruby", engine: engine, version: version, fingerprint: "f")
  end

  def gems(version, engine: "ruby", **wanted)
    options = wanted.empty? ? {} : {wanted: Rubyrig::Runtimes::Diagnostics.wanted(**wanted)}
    Rubyrig::Runtimes::Diagnostics.new(cache_dir: tmpdir, interpreter: interpreter(version, engine: engine), **options).gems
  end

  def test_gems_follow_what_each_runtime_can_run
    assert_equal %w[stackprof], gems("3.1.2")
    assert_equal %w[stackprof gvltools gvl-tracing], gems("3.2.0")
    assert_equal %w[stackprof gvltools gvl-tracing vernier], gems("3.3.8")
    assert_empty gems("9.3.9.0", engine: "jruby")
  end

  # A run installs only what it asks for, so the default GVL metrics need no compiler on 3.1 (which
  # has no GVL API), and a profiler is installed only for --profile.
  def test_a_run_installs_only_the_gems_its_diagnostics_need
    assert_empty gems("3.1.2", gvl: true, trace: nil, profile: nil)
    assert_equal %w[gvltools], gems("3.3.8", gvl: true, trace: nil, profile: nil)
    assert_equal %w[stackprof gvl-tracing], gems("3.3.8", gvl: false, trace: "gvl", profile: "stackprof")
    assert_equal %w[stackprof], gems("3.1.2", gvl: true, trace: "gvl", profile: "stackprof")
    assert_equal %w[vernier], gems("3.3.8", gvl: false, trace: nil, profile: "vernier")
  end

  def test_nothing_is_installed_in_an_empty_cache
    diag = Rubyrig::Runtimes::Diagnostics.new(cache_dir: tmpdir, interpreter: interpreter("3.3.8"))
    refute diag.installed?
    refute diag.gvl?
  end
end
