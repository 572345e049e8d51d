require "test_helper"

# JRuby (Debian's jruby package, or any jruby on PATH) through the same harness as CRuby: the nbody
# built-in, a command workload that starts `ruby`, and a gem set installed by JRuby's own bundler.
class JrubyTest < Minitest::Test
  include SlowTest

  def setup
    super
    needs(Rubyrig::Processes::Which.find("jruby"), "no jruby on PATH: install Debian's jruby package")
  end

  def trials(dir) = File.readlines(File.join(dir, "trials.jsonl")).map { |l| JSON.parse(l) }

  def test_the_nbody_builtin_runs_on_jruby
    dir = File.join(tmpdir, "run")
    status, out, err = run_cli("compare", "-r", "jruby", "-b", "2", "--iterations", "3", "--warmup", "1",
      "--param", "steps=2000", "--results", dir, "--", "builtin:nbody")
    assert_equal 0, status, err + out
    all = trials(dir)
    assert_equal 2, all.size
    all.each do |t|
      assert_equal "ok", t["status"], t["reason"]
      assert_operator t.dig("metrics", "iterations_per_s"), :>, 0
      assert_equal "jruby", t.dig("facts", "engine")
      assert_match(/\Ajruby /, t.dig("facts", "description"))
      assert_equal 3, t.dig("samples", "iterations_s").size
    end
    assert_equal "jruby", Rubyrig::Processes::TextFile.json(File.join(dir, "run.json")).dig("runtimes", "jruby", "interpreter", "engine")
  end

  def test_a_command_that_starts_ruby_runs_jruby
    dir = File.join(tmpdir, "run")
    status, out, err = run_cli("compare", "-r", "jruby", "-b", "1", "--results", dir, "--",
      "ruby", "-e", "print RUBY_ENGINE")
    assert_equal 0, status, err + out
    trial = trials(dir).first
    assert_equal "ok", trial["status"], trial["reason"]
    assert_equal "jruby", Rubyrig::Processes::TextFile.read(File.join(dir, "artifacts", trial["batch_id"], "stdout.log"))
    assert_equal "jruby", trial.dig("facts", "engine"), "the probe must load through RUBYOPT in JRuby too"
  end

  def test_a_gemfile_is_installed_with_jrubys_own_bundler
    dir = File.join(tmpdir, "run")
    experiment = write(tmpdir, "rack.yml", <<~YAML)
      runtimes: [jruby]
      workloads:
        - script: #{File.join(ROOT, "test/fixtures/rack/bench.rb")}
          gemfile: #{File.join(ROOT, "test/fixtures/rack/Gemfile")}
          iterations: 3
          warmup: 1
      batches: 1
    YAML
    status, out, err = run_cli("run", experiment, "--results", dir)
    assert_equal 0, status, err + out
    bundle = Rubyrig::Processes::TextFile.json(File.join(dir, "run.json")).fetch("bundles").first
    assert_match(/universal-java/, Rubyrig::Processes::TextFile.read(bundle["lockfile"]), "the lockfile must come from JRuby's bundler")
    trial = trials(dir).first
    assert_equal "ok", trial["status"], trial["reason"]
    assert_equal bundle["lockfile_sha256"], trial.dig("facts", "lockfile_sha256")
  end
end
