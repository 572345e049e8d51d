require "test_helper"
require "digest"

# A workload with a Gemfile runs under two CRuby versions, each with a gem set installed by its own
# bundler into its own directory, with its own lockfile; an install failure names runtime and gem.
class BundlesTest < Minitest::Test
  include SlowTest

  RACK = File.join(RubyrigTest::ROOT, "test", "fixtures", "rack")
  MISSING = File.join(RubyrigTest::ROOT, "test", "fixtures", "missing-gem")

  def experiment(runtimes, fixture, batches: 2)
    write(tmpdir, "bundle.yml", <<~YAML)
      name: bundle
      runtimes: #{runtimes.inspect}
      workloads:
        - script: #{File.join(fixture, "bench.rb")}
          gemfile: #{File.join(fixture, "Gemfile")}
          iterations: 3
          warmup: 1
      batches: #{batches}
    YAML
  end

  def test_each_cruby_version_gets_its_own_lockfile
    status, out, err = run_cli("build", "3.3.8")
    assert_equal 0, status, "3.3.8 could not be built: #{err}#{out}"
    dir = File.join(tmpdir, "run")
    status, out, err = run_cli("run", experiment(["system", "3.3.8"], RACK), "--results", dir)
    assert_equal 0, status, err + out
    meta = Rubyrig::Processes::TextFile.json(File.join(dir, "run.json"))
    bundles = meta.fetch("bundles").to_h { |b| [b["runtime"], b] }
    assert_equal %w[3.3.8 system], bundles.keys.sort
    lockfiles = bundles.values.map { |b| b["lockfile"] }
    assert_equal 2, lockfiles.uniq.size, "each runtime needs its own lockfile"
    bundles.each do |label, bundle|
      assert File.file?(bundle["lockfile"]), "#{label}: #{bundle["lockfile"]} is missing"
      assert_equal Digest::SHA256.file(bundle["lockfile"]).hexdigest, bundle["lockfile_sha256"]
      assert_includes bundle["lockfile"], meta.dig("runtimes", label, "interpreter", "fingerprint")
      assert_match(/^    rack \(\d/, Rubyrig::Processes::TextFile.read(bundle["lockfile"]))
    end
    # The measured batches (3.3.8 measures the GVL in a diagnostic batch apart: system cannot).
    trials = File.readlines(File.join(dir, "trials.jsonl")).map { |l| JSON.parse(l) }.reject { |t| t["diagnostic"] }
    assert_equal 4, trials.size
    trials.each do |t|
      assert_equal "ok", t["status"], t["reason"]
      assert_equal bundles.fetch(t["runtime"])["lockfile_sha256"], t.dig("facts", "lockfile_sha256")
    end
    assert_equal %w[3.3.8 system], trials.map { |t| t["runtime"] }.uniq.sort
  end

  def test_a_gem_that_cannot_be_installed_gives_one_line_naming_runtime_and_gem
    status, _out, err = run_cli("run", experiment(["system"], MISSING, batches: 1), "--results", File.join(tmpdir, "run"))
    assert_equal Rubyrig::CLI::EXIT_ERROR, status
    errors = err.lines.grep(/rubyrig: error:/)
    assert_equal 1, errors.size, err
    assert_match(/runtime system \(3\.1\.2\) could not install the gem rubyrig-no-such-gem-4f2a9c/, errors.first)
    assert_match(/see \S+install\.log$/, errors.first.chomp)
  end
end
