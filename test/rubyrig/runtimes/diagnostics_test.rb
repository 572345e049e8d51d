require "test_helper"

class DiagnosticsTest < Minitest::Test
  def interpreter(version, engine: "ruby")
    Rubyrig::Runtimes::Interpreter.new(name: version, path: "/r/bin/ruby", engine: engine, version: version, fingerprint: "f")
  end

  def gems(version, engine: "ruby")
    Rubyrig::Runtimes::Diagnostics.new(cache_dir: tmpdir, interpreter: interpreter(version, engine: engine)).gems
  end

  def test_gems_follow_what_each_runtime_can_run
    assert_equal %w[stackprof], gems("3.1.2")
    assert_equal %w[stackprof gvltools gvl-tracing], gems("3.2.0")
    assert_equal %w[stackprof gvltools gvl-tracing vernier], gems("3.3.8")
    assert_empty gems("9.3.9.0", engine: "jruby")
  end

  def test_nothing_is_installed_in_an_empty_cache
    diag = Rubyrig::Runtimes::Diagnostics.new(cache_dir: tmpdir, interpreter: interpreter("3.3.8"))
    refute diag.installed?
    refute diag.gvl?
  end
end
