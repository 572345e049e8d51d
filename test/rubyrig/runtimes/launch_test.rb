require "test_helper"

class LaunchTest < Minitest::Test
  def launch(spec, engine: "ruby", version: "3.3.8")
    interpreter = Rubyrig::Runtimes::Interpreter.new(name: "x", path: "/opt/x/bin/ruby", engine: engine, version: version,
      yjit: true, jemalloc_linked: false, description: "d")
    Rubyrig::Runtimes::Launch.compose(Rubyrig::Runtime.parse(spec), interpreter, jemalloc_path: "/usr/lib/libjemalloc.so.2")
  end

  def test_a_process_of_another_ruby_contradicts_the_runtime
    problems = launch("jruby", engine: "jruby", version: "9.3.9.0")
      .contradictions("engine" => "ruby", "engine_version" => "3.1.2", "yjit_enabled" => false)
    assert_equal 1, problems.size
    assert_match(/ran ruby 3\.1\.2 instead of jruby 9\.3\.9\.0/, problems.first)
  end

  def test_the_same_ruby_with_its_variants_has_no_contradiction
    l = launch("3.3.8+yjit")
    assert_equal ["--yjit"], l.ruby_flags
    assert_equal ["/opt/x/bin"], l.bin_dirs
    assert_empty l.contradictions("engine" => "ruby", "engine_version" => "3.3.8", "yjit_enabled" => true)
  end

  def test_jruby_has_no_yjit_expectation_but_warns_about_mn
    l = launch("jruby+mn", engine: "jruby", version: "9.3.9.0")
    refute l.expect.key?("yjit_enabled")
    assert_match(/M:N threads need CRuby 3\.3/, l.warnings.first)
  end

  def test_yjit_on_jruby_is_refused_with_the_reason
    error = assert_raises(Rubyrig::RuntimeSpecError) { launch("jruby+yjit", engine: "jruby", version: "9.3.9.0") }
    assert_match(/YJIT is CRuby's JIT; JRuby compiles to JVM bytecode on its own, so drop \+yjit/, error.message)
  end
end
