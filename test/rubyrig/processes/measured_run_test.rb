# The environment of a measured Ruby: the probe always reaches child Ruby processes through RUBYOPT,
# and with inherit_flags the runtime's flags do too (JRuby's through JRUBY_OPTS), so that a Ruby a
# workload starts itself (ruby-bench's setup commands, a command's own ruby) runs the same runtime.
require "test_helper"

class MeasuredRunTest < Minitest::Test
  def launch(spec, engine: "ruby", flags: [], env: {}, probe_native: nil)
    interpreter = Rubyrig::Runtimes::Interpreter.new(name: "x", path: "/rubies/x/bin/ruby", source: "test", engine: engine,
      version: (engine == "jruby") ? "9.4.8.0" : "3.3.8", ruby_version: "3.3.8", description: "x", platform: "x86_64-linux",
      yjit: true, jemalloc_linked: false, configure_args: "", fingerprint: "fx").freeze
    jemalloc = Struct.new(:path, :problem).new("/usr/lib/libjemalloc.so.2", nil)
    Rubyrig::Runtimes::Launch.compose(Rubyrig::Experiment::Runtime.parse(spec, flags: flags, env: env), interpreter, jemalloc: jemalloc,
      probe_native: probe_native)
  end

  def env(launch, diagnostics: nil, **options)
    cell = Rubyrig::Experiment::Cell.new(index: 0, runtime: launch.runtime.label, workload: "w", params: {})
    workload = Rubyrig::Experiment::Workload.new(name: "w", kind: "script", target: "/x.rb", params: {}, options: {})
    context = Rubyrig::Kinds::Context.new(batch: Rubyrig::Experiment::Plan::Batch.new(id: "c0-b1", cell: cell), workload: workload,
      launch: launch, artifacts_dir: tmpdir, diagnostics: diagnostics)
    run = Rubyrig::Processes::MeasuredRun.new(context)
    run.env(**options).tap { run.abort }
  end

  def test_the_variants_flags_reach_child_rubies_through_rubyopt
    rubyopt = env(launch("x+yjit-mem=32"), inherit_flags: true)["RUBYOPT"].split
    assert_match(/\A-r.*probe\/loader\.rb\z/, rubyopt.first)
    assert_equal ["--yjit", "--yjit-exec-mem-size=32"], rubyopt.drop(1)
    assert_equal 1, env(launch("x+yjit"))["RUBYOPT"].split.size, "without inherit_flags only the probe"
  end

  # The native fast path where it was built, with the loader named for what only the Ruby probe does;
  # diagnostics, which hand their data to the Ruby probe, keep the loader.
  def test_the_native_probe_replaces_the_loader_where_it_was_built
    native = env(launch("x", probe_native: "/cache/probe-native/fx/rubyrig_probe.so"))
    assert_equal ["-r/cache/probe-native/fx/rubyrig_probe.so"], native["RUBYOPT"].split
    assert_equal Rubyrig::Processes::MeasuredRun::PROBE_LOADER, native["RUBYRIG_PROBE_LOADER"]
    assert_nil env(launch("x"))["RUBYRIG_PROBE_LOADER"]
    diagnosed = env(launch("x", probe_native: "/cache/probe-native/fx/rubyrig_probe.so"), diagnostics: Rubyrig::Kinds::DiagnosticsSetup.new(gem_dir: tmpdir, gvl: true))
    assert_match(/probe\/loader\.rb\z/, diagnosed["RUBYOPT"].split.first)
  end

  def test_a_runtimes_own_rubyopt_comes_last
    rubyopt = env(launch("x+yjit", env: {"RUBYOPT" => "-W0"}), inherit_flags: true)["RUBYOPT"].split
    assert_equal ["--yjit", "-W0"], rubyopt.drop(1)
  end

  def test_jruby_flags_go_to_jruby_opts_which_its_rubyopt_would_refuse
    e = env(launch("x", engine: "jruby", flags: ["-Xcompile.invokedynamic=true"], env: {"JRUBY_OPTS" => "--dev"}), inherit_flags: true)
    assert_equal "-Xcompile.invokedynamic=true --dev", e["JRUBY_OPTS"]
    assert_equal 1, e["RUBYOPT"].split.size
    assert_equal "--dev", env(launch("x", engine: "jruby", env: {"JRUBY_OPTS" => "--dev"}), inherit_flags: true)["JRUBY_OPTS"]
  end

  # A batch that ends in an uncaught exception says which: Ruby's report line, not the code line and
  # caret Ruby prints after it, nor the last line of a long backtrace.
  def test_the_failure_reason_is_the_exceptions_report
    dir = tmpdir
    tail = ->(text) { Rubyrig::Processes::MeasuredRun.allocate.send(:tail, write(dir, "stderr.log", text)) }
    assert_equal "b.rb:4:in `<main>': uninitialized constant Data (NameError)",
      tail.call("b.rb:4:in `<main>': uninitialized constant Data (NameError)\n\nPoint = Data.define(:x)\n        ^^^^\n")
    backtrace = (1..60).map { |i| "\tfrom lib/x.rb:#{i}:in `y'" }.join("\n")
    assert_equal "adapter.rb:545:in `table_structure': Could not find table 'users' (ActiveRecord::StatementInvalid)",
      tail.call("Installing x\nadapter.rb:545:in `table_structure': Could not find table 'users' (ActiveRecord::StatementInvalid)\n#{backtrace}\n")
    assert_equal "killed by the kernel", tail.call("warming up\nkilled by the kernel\n")
  end
end
