# The uptime-check workload on the system Ruby: two worker processes check the HTTP, HTTPS and TCP
# stubs and write one row per job into the batch's SQLite file, which the test opens and counts.
require "test_helper"
require_relative "jobs_test_support"

class JobsUptimeChecksTest < Minitest::Test
  include SlowTest
  include JobsTestSupport

  JOBS = 300

  def test_writes_one_row_per_job_and_reports_check_latency
    status, err, trials, results = run_experiment(
      "runtimes" => ["system"],
      "workloads" => [{"builtin" => "uptime-checks", "params" => {"jobs" => JOBS, "processes" => 2, "concurrency" => 5}}],
      "batches" => 2
    )
    assert_equal 0, status, err
    assert_equal 2, trials.size
    trials.each do |trial|
      assert_equal "ok", trial["status"], trial["reason"]
      m = trial["metrics"]
      assert_equal JOBS, m["processed_count"]
      assert_equal JOBS, m["check_rows"]
      assert_equal 0, m["check_failure_count"]
      %w[check_latency check_latency_http check_latency_https check_latency_tcp].each do |name|
        assert_operator m["#{name}_p50_s"], :>, 0
        assert_operator m["#{name}_p50_s"], :<=, m["#{name}_p99_s"]
      end
      assert_equal 2, Dir.glob(File.join(results, "artifacts", trial["batch_id"], "worker-*")).size
      rows = count_rows(results, File.join(results, "artifacts", trial["batch_id"], "jobs.sqlite3"))
      assert_equal [JOBS, JOBS, JOBS / 3, 0], rows
    end
    assert_empty survivors(results)
  end

  # Opens the SQLite file with the system Ruby's own gem set for this workload and counts its rows:
  # all rows, distinct jobs, HTTPS checks and checks that were not up.
  def count_rows(results, database)
    meta = Rubyrig::Processes::TextFile.json(File.join(results, "run.json"))
    bundle_dir = File.dirname(meta["bundles"].first["lockfile"])
    env = {"BUNDLE_GEMFILE" => File.join(bundle_dir, "Gemfile"), "BUNDLE_PATH" => meta["bundles"].first.fetch("bundle_path"),
           "BUNDLE_APP_CONFIG" => File.join(bundle_dir, ".bundle"), "RUBYOPT" => nil}
    code = 'db = SQLite3::Database.new(ARGV[0]); puts db.get_first_row("SELECT count(*), count(DISTINCT jid), ' \
      "sum(kind = 'https'), sum(status <> 'up') FROM rubyrig_checks\").join(\" \")"
    out, _err, exit = Rubyrig::Processes::Child.capture([meta["runtimes"]["system"]["interpreter"]["path"], "-rbundler/setup",
      "-rsqlite3", "-e", code, database], env: env)
    assert exit.success?
    out.split.map(&:to_i)
  end
end
