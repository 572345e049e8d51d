# builtin:sidekiq-noop on a newer JRuby (Debian trixie's 9.4, from `rubyrig install jruby-9.4`) and
# CRuby 3.3.8 in one run, with and without warmup jobs: every job, warmup included, is accounted for on
# both, each runtime's gem set resolves the newest Sidekiq it supports (8 on 3.3.8, 7 on JRuby 9.4, which
# is Ruby 3.1), and the report names it per runtime.
require "test_helper"
require_relative "jobs_test_support"

class JobsJrubyTest < Minitest::Test
  include SlowTest
  include JobsTestSupport

  JOBS = 300
  WARMUP = 200

  def setup
    super
    %w[3.3.8 jruby-9.4].each do |name|
      next if Dir.glob(File.join(cache_dir, "rubies", name, "bin", "{ruby,jruby}")).any?
      skip "#{name} is not installed: run bin/setup-rubies"
    end
  end

  def test_noop_jobs_drain_on_jruby_9_4_and_cruby_with_and_without_warmup
    status, err, trials, results = run_experiment(
      "runtimes" => ["3.3.8", "jruby-9.4"],
      "workloads" => [
        {"builtin" => "sidekiq-noop", "name" => "cold", "params" => {"jobs" => JOBS, "concurrency" => 10}},
        {"builtin" => "sidekiq-noop", "name" => "warm", "warmup_jobs" => WARMUP, "params" => {"jobs" => JOBS, "concurrency" => 10}}
      ],
      "batches" => 1, "seed" => 5
    )
    assert_equal 0, status, err
    trials = trials.reject { |t| t["diagnostic"] } # 3.3.8 measures the GVL apart: JRuby cannot
    assert_equal 4, trials.size
    trials.each do |t|
      m = t["metrics"]
      warmup = (t["workload"] == "warm") ? WARMUP : 0
      assert_equal "ok", t["status"], t["reason"]
      assert_equal JOBS, m["processed_count"]
      assert_equal JOBS + warmup, t["facts"]["sidekiq_processed"], "Sidekiq's own counter: every job, warmup included"
      assert_equal warmup, t["facts"]["warmup_jobs"]
      if warmup.positive?
        assert_equal WARMUP, m["warmup_processed_count"]
        assert_operator m["warmup_jobs_per_s"], :>, 0
      else
        refute m.key?("warmup_processed_count")
      end
      records = Dir.glob(File.join(results, "artifacts", t["batch_id"], "records", "*.tsv")).flat_map { |f| File.readlines(f) }
      assert_equal JOBS + warmup, records.map { |line| line.split("\t").first }.uniq.size, "one record per job, none twice"
      assert_equal warmup, records.count { |line| line.chomp.end_with?("\twarmup") }
      assert_equal t["samples"]["jobs_timeline"]["completed"].sum, JOBS, "the timeline counts the measured jobs"
    end
    jruby = trials.select { |t| t["runtime"] == "jruby-9.4" }
    assert jruby.all? { |t| t["facts"]["engine"] == "jruby" && t["facts"]["description"].start_with?("jruby 9.4.") }
    assert jruby.all? { |t| t["facts"]["sidekiq_version"].start_with?("7.") }, "JRuby 9.4 is Ruby 3.1: Sidekiq 7"
    cruby = trials.select { |t| t["runtime"] == "3.3.8" }
    assert cruby.all? { |t| t["facts"]["sidekiq_version"].start_with?("8.") }, "CRuby 3.3: Sidekiq 8"
    bundles = Rubyrig::Processes::TextFile.json(File.join(results, "run.json")).fetch("bundles")
    assert_equal({"3.3.8" => 8, "jruby-9.4" => 7}, bundles.to_h { |b| [b["runtime"], b.dig("gems", "sidekiq").to_i] })
    report = Rubyrig::Processes::TextFile.read(File.join(results, "report.md"))
    assert_match(/\| `jruby-9\.4` \| sidekiq-noop\/Gemfile \| .*sidekiq 7\./, report)
    assert_match(/\| `3\.3\.8` \| sidekiq-noop\/Gemfile \| .*sidekiq 8\./, report)
    assert_empty survivors(results)
  end
end
