# Parameters have one truth at run time: the plan records each cell's effective parameters (its kind's
# defaults merged in) and every batch runs exactly those, so a run resumed after a default changed
# still executes what its run.json claims.
require "test_helper"
require "minitest/mock"

class ResumeParamsTest < Minitest::Test
  include SlowTest

  KIND = Rubyrig::Kinds::Command::Kind

  def test_a_resumed_run_executes_the_parameters_run_json_recorded_after_a_default_changed
    run = File.join(tmpdir, "run")
    KIND.stub(:default_params, {"n" => 3}) do
      status, _, err = run_cli("compare", "-r", "system", "--batches", "3", "--seed", "4", "--results", run, "--",
        "ruby", "-e", "print ARGV[0]", "{n}")
      assert_equal 0, status, err
    end
    trials = File.join(run, "trials.jsonl")
    lines = File.readlines(trials)
    File.write(trials, lines.first(1).join)
    resumed = lines.drop(1).map { |line| JSON.parse(line)["batch_id"] }
    resumed.each { |id| FileUtils.rm_rf(File.join(run, "artifacts", id)) }

    KIND.stub(:default_params, {"n" => 5}) do
      assert_equal({"n" => 5}, KIND.effective_params({}), "today's default differs from the recorded one")
      status, _, err = run_cli("run", "--resume", run)
      assert_equal 0, status, err
    end

    meta = Rubyrig::Processes::TextFile.json(File.join(run, "run.json"))
    assert_equal [{"n" => 3}], meta.dig("plan", "cells").map { |c| c["effective_params"] }
    assert_equal 3, File.readlines(trials).size
    resumed.each do |id|
      printed = File.read(File.join(run, "artifacts", id, "stdout.log"))
      assert_equal "3", printed, "batch #{id} was resumed with today's default instead of run.json's"
    end
  end
end
