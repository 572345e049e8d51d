require "test_helper"

# A Ruby file as people already have it: no Rubyrig.bench, arguments after the file, and a file name
# that is wrong. Real interpreters; the slow/fast difference is a sleep, so it holds on a busy host.
class PlainScriptTest < Minitest::Test
  include SlowTest

  def test_a_plain_script_is_timed_as_a_whole_run_and_gets_a_speed_verdict
    dir = tmpdir
    write(dir, "nap.rb", "sleep Float(ENV.fetch('NAP'))\n")
    experiment = write(dir, "nap.yml", <<~YAML)
      runtimes:
        - {spec: system, label: quick, env: {NAP: "0.05"}}
        - {spec: system, label: sleepy, env: {NAP: "0.3"}}
      workloads:
        - script: nap.rb
      batches: 5
    YAML
    run = File.join(dir, "run")
    status, out, err = run_cli("run", experiment, "--results", run)
    assert_equal 0, status, err
    trials = trial_lines(run)
    assert_equal 10, trials.size
    trials.each do |t|
      assert_operator t.dig("metrics", "run_s"), :>=, Float((t["runtime"] == "quick") ? "0.05" : "0.3")
      assert_operator t.dig("metrics", "boot_s"), :>, 0, "the interpreter's boot is measured apart"
      assert_nil t.dig("metrics", "iterations_per_s")
    end
    assert_match(/^  script run time \(lower is better\); ratio to quick, 95% interval/, out)
    assert_match(/^    sleepy .*\d\.\d+x \[.*\].* slower$/, out)
    assert_match(/^  boot time$/, out)
    summary = Rubyrig::Processes::TextFile.json(File.join(run, "summary.json"))
    verdict = summary["comparisons"].find { |c| c["metric"] == "run_s" }
    assert_equal "slower", verdict["verdict"]
  end

  def test_arguments_after_the_file_reach_argv
    dir = tmpdir
    script = write(dir, "args.rb", "puts ARGV.inspect\n")
    run = File.join(dir, "run")
    status, _, err = run_cli("compare", "-r", "system", "--batches", "1", "--results", run, "--", script, "2", "50000")
    assert_equal 0, status, err
    trial = trial_lines(run).first
    assert_equal "ok", trial["status"]
    assert_equal %(["2", "50000"]\n), Rubyrig::Processes::TextFile.read(File.join(run, "artifacts", trial["batch_id"], "stdout.log"))
  end

  def test_a_script_that_skips_the_probe_fails_unverified
    dir = tmpdir
    script = write(dir, "bye.rb", "exit!(0)\n")
    run = File.join(dir, "run")
    status, _, = run_cli("compare", "-r", "system+yjit", "--batches", "1", "--results", run, "--", script)
    assert_equal 1, status
    trial = trial_lines(run).first
    assert_equal "failed", trial["status"]
    assert_match(/the Ruby process \(pid \d+\) wrote no facts, so what ran is unverified/, trial["reason"])
  end

  def test_a_missing_file_is_one_line_before_any_batch
    dir = tmpdir
    run = File.join(dir, "run")
    status, out, err = run_cli("compare", "-r", "system", "--results", run, "--", File.join(dir, "bench.rb"), "2")
    assert_equal 1, status
    assert_empty out
    assert_equal 1, err.lines.size, err
    assert_match(/\Arubyrig: error: .*bench\.rb does not exist; give the path of a Ruby file \(or of a ruby-bench checkout, a directory with benchmarks\/\)$/, err)
    refute File.exist?(run), "no run was started"
  end

  def test_a_missing_command_is_one_line_before_any_batch
    dir = tmpdir
    run = File.join(dir, "run")
    status, _, err = run_cli("compare", "-r", "system", "--results", run, "--", "no-such-tool-rubyrig", "--fast")
    assert_equal 1, status
    assert_equal "rubyrig: error: cannot run the command workload: no-such-tool-rubyrig is not an executable on PATH for system; check the command or install it\n", err
    refute File.exist?(run), "no run was started"
  end
end

# A machine without a locale (minimal images, containers): Ruby's default external encoding is then
# US-ASCII, and everything rubyrig reads back (logs, probe files, trials) holds UTF-8.
class NoLocaleTest < Minitest::Test
  include SlowTest

  def test_a_run_without_a_locale_reads_back_what_it_wrote
    dir = tmpdir
    script = write(dir, "größe/naïve.rb", "warn 'Größe überschritten ✗'; exit 3\n")
    run = File.join(dir, "run")
    env = ENV.to_h.except("LANG", "LANGUAGE").merge("LC_ALL" => "C", "RUBYRIG_CACHE_DIR" => cache_dir)
    out, err, exit = Rubyrig::Processes::Child.capture([RbConfig.ruby, RubyrigTest::EXE, "compare", "-r", "system", "--batches", "1",
      "--results", run, "--", script], env: env, timeout_s: 120)
    assert_equal 1, exit.status, err
    refute_match(/\.rb:\d+:in /, err, "no backtrace")
    assert_match(/1 failed batch \(exited with status 3: Größe überschritten ✗\)/, out)
    assert_equal "exited with status 3: Größe überschritten ✗", trial_lines(run).first["reason"]
    report_out, report_err, report_exit = Rubyrig::Processes::Child.capture([RbConfig.ruby, RubyrigTest::EXE, "report", run], env: env)
    assert_equal 1, report_exit.status, report_err
    assert_match(/naïve\.rb/, report_out)
  end
end
