# Killing the batch's redis-server in the middle of the drain fails that batch with a reason that says
# so, and the next batch runs on a fresh redis-server; no process of the run survives.
require "test_helper"
require_relative "jobs_test_support"

class JobsRedisKilledTest < Minitest::Test
  include SlowTest
  include JobsTestSupport

  JOBS = 10_000
  REASON = /\Aredis-server died during the drain; \d+ of #{JOBS} jobs had finished \(killed by SIGKILL\)/

  def test_a_batch_whose_redis_dies_fails_and_the_run_goes_on
    results = nil
    killed = []
    # The runner spawns from this (main) thread; the killer thread only watches files and sends a signal.
    killer = Thread.new do
      until killed.any?
        records = results && Dir.glob(File.join(results, "artifacts", "*", "records", "*.tsv")).find { |f| File.size(f) > 0 }
        if records
          pid_file = File.join(File.dirname(records, 2), "redis.pid")
          killed << [File.basename(File.dirname(records, 2)), Rubyrig::Processes::TextFile.read(pid_file).to_i]
          Process.kill("KILL", killed.last[1])
        end
        sleep 0.01
      end
    end
    experiment = {
      "runtimes" => ["system"],
      "workloads" => [{"builtin" => "sidekiq-noop", "params" => {"jobs" => JOBS, "concurrency" => 1}}],
      "batches" => 2
    }
    dir = tmpdir
    results = File.join(dir, "results")
    status, _out, err = run_cli("run", write(dir, "experiment.yml", Psych.dump(experiment)), "--results", results)
    killer.join(5)
    refute killer.alive?, "the killer never found a running drain"
    trials = read_trials(results)
    failed, ok = trials.partition { |t| t["status"] == "failed" }
    assert_equal 1, status, "a failed batch makes the run exit 1: #{err}"
    assert_equal 1, failed.size
    assert_equal killed.first[0], failed.first["batch_id"]
    assert_match(REASON, failed.first["reason"])
    assert_equal 1, ok.size
    assert_equal JOBS, ok.first["metrics"]["processed_count"]
    refute_equal killed.first[1], Rubyrig::Processes::TextFile.read(File.join(results, "artifacts", ok.first["batch_id"], "redis.pid")).to_i
    assert_empty survivors(results)
  ensure
    killer&.kill
  end
end
