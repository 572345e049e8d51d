# The no-op Sidekiq drain on real Redis and Sidekiq, on system and system+yjit: every batch accounts for
# every job, keeps enqueue, boot and drain apart, and the comparison gives jobs/s with an interval.
require "test_helper"
require_relative "jobs_test_support"

class JobsNoopTest < Minitest::Test
  include SlowTest
  include JobsTestSupport

  def test_noop_jobs_on_system_and_yjit
    status, err, trials, results = run_experiment(
      "runtimes" => ["system", "system+yjit"],
      "workloads" => [{"builtin" => "sidekiq-noop", "params" => {"jobs" => [1000, 10_000], "concurrency" => 10}}],
      "batches" => 2, "seed" => 7
    )
    assert_equal 0, status, err
    assert_equal 8, trials.size
    trials.each do |trial|
      m = trial["metrics"]
      jobs = trial["params"]["jobs"]
      assert_equal "ok", trial["status"], trial["reason"]
      assert_equal jobs, m["enqueued_count"]
      assert_equal jobs, m["processed_count"]
      assert_equal jobs, trial["facts"]["sidekiq_processed"], "Sidekiq's own counter agrees"
      assert_in_delta jobs / m["drain_s"], m["jobs_per_s"], 1e-6 * m["jobs_per_s"]
      %w[enqueue_per_s enqueue_s boot_s drain_s job_run_p99_s queue_wait_p50_s cpu_user_s end_pss_bytes
        voluntary_ctx_switches].each { |key| assert m[key].positive?, "#{key} in #{m}" }
      assert_equal trial["runtime"] == "system+yjit", trial["facts"]["yjit_enabled"]
      t = gate_times(File.join(results, "artifacts", trial["batch_id"]))
      assert_operator t[:enqueued], :<, t[:ready].min, "workers boot after the enqueue"
      assert_operator t[:ready].max, :<, t[:go], "the gate opens after every worker is ready"
      assert_operator t[:go], :<=, t[:first_start], "no job starts before the gate"
      timeline = trial["samples"].fetch("jobs_timeline")
      phases = timeline.values_at("enqueue_start_s", "enqueue_end_s", "boot_start_s", "ready_s")
      assert_equal phases.sort, phases, "enqueue, then boot, in order"
      assert_operator phases.last, :<, 0, "everything before the gate has a negative time"
      assert_operator 0, :<=, timeline["first_start_s"]
      assert_in_delta m["drain_s"], timeline["last_finish_s"] - timeline["first_start_s"], 1e-5
      assert_equal jobs, timeline["completed"].sum, "every job finished in one slice"
      assert_in_delta timeline["last_finish_s"], timeline["bucket_s"] * timeline["completed"].size, 1e-5
    end
    summary = Rubyrig::Processes::TextFile.json(File.join(results, "summary.json"))
    comparisons = summary["comparisons"].select { |c| c["metric"] == "jobs_per_s" && c["runtime"] == "system+yjit" }
    assert_equal 2, comparisons.size
    comparisons.each { |c| assert_operator c["ci"][0], :<=, c["ci"][1] }
    assert_empty survivors(results)
  end
end
