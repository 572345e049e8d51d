require "test_helper"

# Command workloads: argv with {param} substitution, run under the runtime's environment, timed from
# outside; a failing command fails its batch with the tail of its stderr.
class CommandWorkloadTest < Minitest::Test
  include SlowTest

  def test_parameters_are_substituted_and_variants_reach_the_process
    dir = tmpdir
    run = File.join(dir, "run")
    status, _, err = run_cli("compare", "-r", "system+yjit", "--batches", "1", "--param", "n=1,3",
      "--results", run, "--", "ruby", "-e", "File.write(ENV['RUBYRIG_PROBE_DIR'] + '/n{n}.txt', RubyVM::YJIT.enabled?.to_s)")
    assert_equal 0, status, err
    trials = trial_lines(run)
    assert_equal 2, trials.size
    trials.each do |t|
      n = t["params"]["n"]
      assert_equal "true", Rubyrig::Processes::TextFile.read(File.join(run, "artifacts", t["batch_id"], "probe", "n#{n}.txt")), "--yjit arrived through RUBYOPT"
      assert_operator t.dig("metrics", "wall_s"), :>, 0
      assert_equal true, t.dig("facts", "yjit_enabled")
    end
  end

  def test_a_failing_command_fails_its_batch_with_the_reason
    dir = tmpdir
    run = File.join(dir, "run")
    status, out, = run_cli("compare", "-r", "system", "--batches", "1", "--results", run,
      "--", "ruby", "-e", "warn 'database is down'; exit 4")
    assert_equal 1, status
    trial = trial_lines(run).first
    assert_equal "failed", trial["status"]
    assert_equal "exited with status 4: database is down", trial["reason"]
    assert_match(/1 failed batch \(exited with status 4: database is down\)/, out)
  end

  def test_a_batch_past_its_deadline_is_stopped_and_failed
    dir = tmpdir
    run = File.join(dir, "run")
    run_cli("compare", "-r", "system", "--batches", "1", "--timeout", "0.5", "--results", run, "--", "sleep", "30")
    trial = trial_lines(run).first
    assert_equal "failed", trial["status"]
    assert_match(/timed out/, trial["reason"])
    assert_empty processes_mentioning(run)
  end

  # The forked copy of rubyrig (here holding 300 MB) is rubyrig's memory, not the command's: neither a
  # sample taken before the exec nor wait4's high-water mark, which Linux carries across exec, may count.
  def test_peak_memory_is_the_commands_own_not_the_forked_rubyrigs
    ballast = "x" * 300_000_000
    run = File.join(tmpdir, "run")
    status, _, err = run_cli("compare", "-r", "system", "--batches", "2", "--results", run, "--", "sleep", "0.5")
    assert_equal 0, status, err
    trial_lines(run).each { |t| assert_operator t.dig("metrics", "peak_rss_bytes"), :<, 50_000_000 }
    assert_equal 300_000_000, ballast.bytesize
  end
end
