# A Sidekiq worker process killed in the middle of the drain (real redis-server and Sidekiq): that
# batch fails with the worker, the signal and how far the drain got; the next batch drains on fresh
# processes; nothing of the run is left.
require "test_helper"
require_relative "jobs_test_support"

class FaultsJobsTest < Minitest::Test
  include SlowTest
  include JobsTestSupport

  JOBS = 20_000
  REASON = /\Asidekiq worker [12] killed by SIGKILL during the drain; \d+ of #{JOBS} jobs had finished; see \S+worker-[12]\/stderr\.log\z/

  def test_a_worker_that_dies_mid_drain_fails_only_its_batch_with_the_reason
    results = nil
    killed = nil
    killer = Thread.new do
      until killed
        records = results && Dir.glob(File.join(results, "artifacts", "*", "records", "*.tsv")).find { |f| File.size(f) > 0 }
        if records
          batch_dir = File.dirname(records, 2)
          ready = Dir.glob(File.join(batch_dir, "control", "ready-*")).grep(/ready-\d+\z/).min
          pid = ready[/ready-(\d+)\z/, 1].to_i
          Process.kill("KILL", pid)
          killed = [File.basename(batch_dir), pid]
        end
        sleep 0.01
      end
    end
    experiment = {
      "runtimes" => ["system"],
      "workloads" => [{"builtin" => "sidekiq-noop", "params" => {"jobs" => JOBS, "processes" => 2, "concurrency" => 1}}],
      "batches" => 2
    }
    dir = tmpdir
    results = File.join(dir, "results")
    status, _out, err = run_cli("run", write(dir, "experiment.yml", Psych.dump(experiment)), "--results", results)
    killer.join(5)
    refute_nil killed, "the killer never found a running drain"
    assert_equal 1, status, err
    trials = read_trials(results)
    failed, ok = trials.partition { |t| t["status"] == "failed" }
    assert_equal [killed[0]], failed.map { |t| t["batch_id"] }
    assert_match(REASON, failed.first["reason"])
    assert_equal 1, ok.size
    assert_equal JOBS, ok.first.dig("metrics", "processed_count")
    assert_empty survivors(results)
  ensure
    killer&.kill
  end
end
