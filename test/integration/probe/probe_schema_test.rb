# Both probes write one report: the Ruby probe (probe.rb, extras.rb) and the native one
# (native/rubyrig_probe.c, built by Runtimes::ProbeNative for this CRuby) each run a small threaded
# script in a real process, and every report is checked against the schema in docs/results-format.md
# ("Probe report"): every field it lists for the report's conditions, of its type, and no other.
require "test_helper"
require "support/probe_schema"

class ProbeSchemaIntegrationTest < Minitest::Test
  include SlowTest

  LOADER = File.join(RubyrigTest::ROOT, "lib/rubyrig/probe/loader.rb")
  EXIT = %w[always exit].freeze
  # Allocates, collects and runs threads, then exits: what every measured process does at least.
  SCRIPT = "a = Array.new(2) { Thread.new { Array.new(20_000) { |i| i.to_s } } }.map(&:value); GC.start; a.size"

  def interpreter = Rubyrig::Runtimes::Interpreter.new(path: RbConfig.ruby, engine: "ruby", fingerprint: "schema-#{Process.pid}")

  def native
    @native ||= Rubyrig::Runtimes::ProbeNative.new(cache_dir: tmpdir).path_for(interpreter).tap do |path|
      needs(path, "the native probe did not build (a compiler and ruby-dev are needed: bin/setup installs them)")
    end
  end

  # The reports of ruby ARGS with this probe environment: {"exit" => [...], "boot" => [...]}.
  def reports(env, *args)
    dir = tmpdir
    _, err, exit = Rubyrig::Processes::Child.capture([RbConfig.ruby, "--disable-gems", *args, "-e", SCRIPT], env: env.merge("RUBYRIG_PROBE_DIR" => dir))
    assert exit.success?, err
    assert_empty err
    files = Dir.glob(File.join(dir, "probe-*.json"))
    {"exit" => files.grep_v(/\.boot\.json\z/), "boot" => files.grep(/\.boot\.json\z/)}.transform_values { |f| f.map { |p| Rubyrig::Processes::TextFile.json(p) } }
  end

  def assert_schema(report, conditions, records: [])
    assert_empty ProbeSchema.problems(report, conditions: conditions, records: records), report.inspect
  end

  def test_the_ruby_and_the_native_probe_write_the_same_schema
    ruby = reports({"RUBYOPT" => "-r#{LOADER}"}).fetch("exit")
    # No Ruby probe to hand the report to: what is there, the native probe wrote.
    native = reports({"RUBYOPT" => "-r#{self.native}", "RUBYRIG_PROBE_LOADER" => File.join(tmpdir, "absent.rb")}).fetch("exit")
    assert_equal [1, 1], [ruby.size, native.size]
    assert_schema(ruby.first, EXIT)
    assert_schema(native.first, EXIT)
    assert_equal ProbeSchema.flatten(ruby.first).keys.sort, ProbeSchema.flatten(native.first).keys.sort,
      "one probe writes a field the other does not"
  end

  # Every optional field, from the Ruby probe, whether loaded from RUBYOPT or by the native one at exit.
  def test_every_optional_field_matches_the_schema
    optional = {"RUBYRIG_PROBE_PSS" => "1", "RUBYRIG_PROBE_ALLOCATOR" => "1", "RUBYRIG_PROBE_MN" => "1", "RUBYRIG_PROBE_EARLY" => "1",
                "RUBYRIG_PROBE_ENV_KEYS" => "HOME,RUBYRIG_UNSET_HERE"}
    record = ["-e", "RubyrigProbe.record(:bench, 'warmup_s' => [0.1], 'iterations_s' => [0.2]); RubyrigProbe.record(:run_s, 0.3)"]
    yjit = RubyVM.const_defined?(:YJIT) ? ["--yjit"] : []
    conditions = EXIT + %w[pss mn] + (yjit.empty? ? [] : %w[yjit])
    [{"RUBYOPT" => "-r#{LOADER}"}, {"RUBYOPT" => "-r#{native}", "RUBYRIG_PROBE_LOADER" => LOADER}].each do |probe|
      found = reports(optional.merge(probe), *yjit, *record)
      assert_equal [1, 1], [found["exit"].size, found["boot"].size], probe.inspect
      assert_schema(found["exit"].first, conditions, records: %w[bench run_s])
      assert_schema(found["boot"].first, %w[always boot])
      assert_equal({"HOME" => ENV["HOME"], "RUBYRIG_UNSET_HERE" => nil}, found["exit"].first["env"])
    end
  end
end
