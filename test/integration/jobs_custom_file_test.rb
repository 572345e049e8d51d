# A user's own jobs file (`jobs:` with `gemfile:`): jobs that raise make the batch ok_with_errors and
# are counted, not retried; jobs that outlive the batch deadline fail it with a timeout, and nothing of
# the batch survives.
require "test_helper"
require_relative "jobs_test_support"

class JobsCustomFileTest < Minitest::Test
  include SlowTest
  include JobsTestSupport

  GEMFILE = File.join(Rubyrig::ROOT, "lib", "rubyrig", "workloads", "sidekiq-noop", "Gemfile")
  JOBS_FILE = <<~RUBY
    class SometimesFailingJob
      include Sidekiq::Job

      def perform(i)
        raise ArgumentError, "job \#{i} fails" if (i % 10).zero?
        sleep(Float(RubyrigJobs.param("sleep_s", "0"))) if i == 1
      end
    end

    RubyrigJobs.define(SometimesFailingJob, args: lambda { |i| [i] })
  RUBY

  def test_raising_jobs_are_counted_and_a_stuck_job_times_out
    dir = tmpdir
    write(dir, "jobs.rb", JOBS_FILE)
    base = {"jobs" => "jobs.rb", "gemfile" => GEMFILE}
    experiment = {
      "runtimes" => ["system"],
      "workloads" => [
        base.merge("name" => "failing", "params" => {"jobs" => 200}),
        base.merge("name" => "stuck", "params" => {"jobs" => 20, "sleep_s" => "60"}, "timeout_s" => 8)
      ],
      "batches" => 1
    }
    results = File.join(dir, "results")
    status, _out, err = run_cli("run", write(dir, "experiment.yml", Psych.dump(experiment)), "--results", results)
    assert_equal 1, status, err
    trials = read_trials(results).to_h { |t| [t["workload"], t] }
    failing = trials.fetch("failing")
    assert_equal "ok_with_errors", failing["status"]
    assert_match(/\A20 jobs raised: ArgumentError/, failing["reason"])
    assert_equal 20, failing["metrics"]["error_count"]
    assert_equal 200, failing["metrics"]["processed_count"]
    stuck = trials.fetch("stuck")
    assert_equal "failed", stuck["status"]
    assert_match(/\Atimed out during the drain; 19 of 20 jobs had finished/, stuck["reason"])
    assert_empty survivors(results)
  end
end
