require "test_helper"

# kill -9 of rubyrig mid-run leaves a readable run and no orphans; --resume completes the plan with no
# duplicate and no lost batch.
class ResumeTest < Minitest::Test
  include SlowTest

  def test_kill_nine_then_resume_completes_the_plan_exactly_once
    dir = tmpdir
    run = File.join(dir, "run")
    # Once the test creates `hold`, the next batch's child says so and sleeps far longer than the test
    # waits: only rubyrig's death can end it (pdeathsig).
    hold = File.join(dir, "hold")
    held = File.join(dir, "held")
    script = "if File.exist?(ARGV[0]) then File.write(ARGV[1], '') and sleep(600) else sleep(0.3) end"
    pid = spawn_rubyrig("compare", "-r", "a=system", "-r", "b=system", "--batches", "4", "--seed", "3",
      "--results", run, "--", "ruby", "-e", script, hold, held, dir: dir)
    wait_for { trial_lines(run).size >= 3 }
    File.write(hold, "")
    wait_for(message: "a batch that sleeps until it is killed") { File.exist?(held) }
    Process.kill("KILL", pid)
    Process.wait(pid)
    File.delete(hold)
    # A killed process still has to be scheduled to exit: waited for, up to 30 s, not slept on.
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 30
    sleep 0.1 until (survivors = processes_mentioning(run)).empty? || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
    assert_empty survivors, "the measured child must die with rubyrig (pdeathsig): #{survivors.map { |p|
      begin
        File.binread("/proc/#{p}/cmdline").tr("\0", " ")
      rescue
        p
      end
    }}"
    done_before = trial_lines(run).map { |t| t["batch_id"] }
    assert_operator done_before.size, :<, 8

    status, out, err = run_cli("run", "--resume", run)
    assert_equal 0, status, err
    assert_match(/Results: #{Regexp.escape(run)}/, out)
    ids = trial_lines(run).map { |t| t["batch_id"] }
    planned = Rubyrig::Processes::TextFile.json(File.join(run, "run.json")).dig("plan", "order").map { |b| b["id"] }
    assert_equal planned.sort, ids.sort, "every planned batch exactly once"
    assert_equal done_before, ids.first(done_before.size), "nothing measured before the kill was lost"
    assert Rubyrig::Processes::TextFile.json(File.join(run, "run.json"))["resumed_at"]
  end

  # A line damaged in the middle of trials.jsonl (not only a torn last one) is named in the report's
  # warnings, in every format, and on --resume, which measures its batch again.
  def test_a_corrupt_line_in_the_middle_is_reported_and_measured_again_on_resume
    run = File.join(tmpdir, "run")
    status, = run_cli("compare", "-r", "system", "--batches", "3", "--seed", "5", "--results", run, "--", "true")
    assert_equal 0, status
    file = File.join(run, "trials.jsonl")
    lines = File.readlines(file)
    lost = JSON.parse(lines[1])["batch_id"]
    File.write(file, [lines[0], "{\"batch_id\": \"#{lost}\", \u0000 damaged\n", lines[2]].join)
    named = /#{Regexp.escape(file)}:2 is not valid JSON \(.*\); skipped, so its batch counts as not run/

    status, out, err = run_cli("report", run)
    assert_equal 0, status, err
    assert_match named, out
    assert_match named, Rubyrig::Processes::TextFile.read(File.join(run, "report.md"))
    assert_match named, JSON.parse(Rubyrig::Processes::TextFile.read(File.join(run, "summary.json")))["warnings"].join("\n")
    assert_includes Rubyrig::Processes::TextFile.read(File.join(run, "report.html")), CGI.escapeHTML("#{file}:2 is not valid JSON")
    assert_match(/n=2 /, out, "the report stands on the two readable batches")

    status, _, err = run_cli("run", "--resume", run)
    assert_equal 0, status, err
    assert_match(/^Warning: #{named}/, err)
    ids = trial_lines_skipping_damage(run).map { |t| t["batch_id"] }
    assert_equal 3, ids.size
    assert_equal lost, ids.last, "the damaged line's batch is measured again"
  end

  def test_resuming_a_finished_run_measures_nothing_more
    dir = tmpdir
    run = File.join(dir, "run")
    status, = run_cli("compare", "-r", "system", "--batches", "2", "--results", run, "--", "ruby", "-e", "1")
    assert_equal 0, status
    status, = run_cli("run", "--resume", run)
    assert_equal 0, status
    assert_equal 2, trial_lines(run).size
  end

  def trial_lines_skipping_damage(run)
    File.readlines(File.join(run, "trials.jsonl")).filter_map do |line|
      JSON.parse(line)
    rescue JSON::ParserError # the damaged line the test wrote
      nil
    end
  end
end
