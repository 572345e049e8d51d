require "test_helper"
require "support/fuzz"

# Hostile and malformed input, generated: valid experiment files and command lines, mutated (see
# test/support/fuzz.rb), run by the CLI in this process (10,000 cases) and by the real binary (a
# sample). Every outcome must be a success, a run whose batches failed, or one `rubyrig: error:` line
# with exit 1 or 2: never a backtrace, a hang or an exception; every results directory left behind
# must be a run that reads, reports and resumes; nothing a value says may run in a shell.
# RUBYRIG_FUZZ_SEED and RUBYRIG_FUZZ_CASES pick other cases (the default seed is fixed, so CI runs the
# same cases every time); a finding prints the case, which reruns alone with RUBYRIG_FUZZ_ONLY=N.
class FuzzTest < Minitest::Test
  include SlowTest

  SEED = Integer(ENV.fetch("RUBYRIG_FUZZ_SEED", "1124"), 10)
  CASES = Integer(ENV.fetch("RUBYRIG_FUZZ_CASES", "10000"), 10)
  BINARY_CASES = Integer(ENV.fetch("RUBYRIG_FUZZ_BINARY_CASES", "100"), 10)
  ONLY = ENV["RUBYRIG_FUZZ_ONLY"]&.then { |n| Integer(n, 10) }
  # A case that has not finished by then hangs: none of them measures for more than a few seconds.
  DEADLINE_S = 60

  def test_cases_run_in_process
    findings = []
    counts = Hash.new(0)
    seconds = Hash.new(0.0)
    started = now
    with_sandbox do |sandbox|
      generator = RubyrigFuzz::Generator.new(SEED, marker: sandbox.marker)
      CASES.times do |i|
        kase = generator.case(i)
        next if ONLY && i != ONLY
        sandbox.prepare(kase)
        case_started = now
        status, out, err, problems = in_process(kase)
        seconds[kase.kind] += now - case_started
        counts[status] += 1
        counts[:ran] += 1 if out.include?("Results: ")
        problems += left_behind(sandbox)
        findings << "#{kase.describe}\n  exit #{status.inspect}; #{problems.join("; ")}\n  stderr: #{err[0, 800]}" unless problems.empty?
        sandbox.clean
      end
      assert_empty processes_mentioning(sandbox.root), "no measured process outlives its case"
    end
    summary = "fuzz (seed #{SEED}): #{CASES} cases in process in #{(now - started).round(1)} s; exit statuses " \
      "#{counts.select { |k, _| k.is_a?(Integer) }.sort.map { |k, v| "#{k}: #{v}" }.join(", ")}; #{counts[:ran]} wrote a report; " \
      "seconds by kind: #{seconds.sort_by { |_, v| -v }.map { |k, v| "#{k} #{v.round}" }.join(", ")}"
    puts "\n#{summary}"
    assert findings.empty?, "#{findings.size} findings:\n#{findings.first(15).join("\n")}"
    assert_operator counts.values_at(0, 1, 2).min, :>, 100, "the cases reach every kind of outcome: #{counts}"
  end

  def test_a_sample_runs_through_the_binary
    findings = []
    with_sandbox do |sandbox|
      generator = RubyrigFuzz::Generator.new(SEED + 1, marker: sandbox.marker)
      ran = 0
      (0..).each do |i|
        break if ran == BINARY_CASES
        kase = generator.case(i)
        # An argument with a NUL byte cannot reach exec at all; those cases run in process only.
        next if kase.argv.any? { |a| a.include?("\0") }
        ran += 1
        sandbox.prepare(kase)
        status, _, err, problems = through_binary(kase, sandbox)
        problems += left_behind(sandbox)
        findings << "#{kase.describe}\n  exit #{status.inspect}; #{problems.join("; ")}\n  stderr: #{err[0, 800]}" unless problems.empty?
        sandbox.clean
      end
      assert_empty processes_mentioning(sandbox.root), "no measured process outlives rubyrig"
    end
    assert findings.empty?, "#{findings.size} findings:\n#{findings.first(15).join("\n")}"
  end

  private

  def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

  def cli_env
    @cli_env ||= ENV.to_h.merge("RUBYRIG_CACHE_DIR" => cache_dir).except("GITHUB_STEP_SUMMARY", "RUBYRIG_HOST_ID")
  end

  def in_process(kase)
    out = StringIO.new(+"")
    err = StringIO.new(+"")
    thread = Thread.new do
      Thread.current.report_on_exception = false
      Rubyrig::CLI.new(kase.argv.map(&:dup), env: cli_env, out: out, err: err).run
    end
    unless thread.join(DEADLINE_S)
      thread.kill
      thread.join(10)
      return [:hang, out.string, err.string, ["no outcome within #{DEADLINE_S} s"]]
    end
    status = thread.value
    [status, out.string, err.string, RubyrigFuzz::Rules.outcome(status, out.string, err.string, debug: kase.argv.include?("--debug"))]
  rescue Exception => e # rubocop:disable Lint/RescueException -- whatever escapes the CLI is the finding, SystemStackError included
    [:raised, out.string, err.string, ["raised #{e.class}: #{e.message[0, 300]} at #{e.backtrace&.first(3)&.join(" < ")}"]]
  end

  def through_binary(kase, sandbox)
    out_path = File.join(sandbox.root, "out.txt")
    err_path = File.join(sandbox.root, "err.txt")
    pid = Process.spawn(cli_env, RbConfig.ruby, RubyrigTest::EXE, *kase.argv, chdir: sandbox.cwd, out: out_path, err: err_path,
      in: File::NULL, pgroup: true)
    deadline = now + DEADLINE_S
    nil
    until (status = Process.wait2(pid, Process::WNOHANG)&.last) || now > deadline
      sleep 0.01
    end
    unless status
      Process.kill("KILL", -pid)
      Process.wait(pid)
      return [:hang, "", "", ["no exit within #{DEADLINE_S} s"]]
    end
    out = File.binread(out_path).force_encoding(Encoding::UTF_8).scrub
    err = File.binread(err_path).force_encoding(Encoding::UTF_8).scrub
    problems = status.signaled? ? ["killed by signal #{status.termsig}"] : []
    problems += RubyrigFuzz::Rules.outcome(status.exitstatus, out, err, debug: kase.argv.include?("--debug"))
    [status.exitstatus, out, err, problems]
  end

  # What a case left: results directories that are not readable runs, half-made ones, or the file a
  # value that ran in a shell would have made.
  def left_behind(sandbox)
    problems = sandbox.runs_left.flat_map { |dir| RubyrigFuzz::Rules.run_dir(dir) }
    problems += sandbox.partial_dirs.map { |dir| "#{dir}: artifacts without run.json" }
    if File.exist?(sandbox.marker)
      File.delete(sandbox.marker)
      problems << "a value ran in a shell: #{sandbox.marker} exists"
    end
    problems
  end

  # The sandbox, with the results directories cases resume, report and merge: a finished run, one cut
  # short, one with a damaged line in the middle, and a folder that holds no run.
  def with_sandbox
    root = tmpdir
    sandbox = RubyrigFuzz::Sandbox.new(root)
    Dir.chdir(sandbox.cwd) do
      status, _, err = run_cli("compare", "-r", "a=system", "-r", "b=system", "-b", "2", "--seed", "3", "--results", sandbox.template("done"), "--", "true")
      assert_equal 0, status, err
      FileUtils.cp_r(sandbox.template("done"), sandbox.template("partial"))
      partial = Rubyrig::Results::Store.open(sandbox.template("partial"))
      partial.update_meta { |m| m.except("finished_at") }
      File.write(partial.path("trials.jsonl"), File.readlines(partial.path("trials.jsonl")).first(2).join)
      FileUtils.cp_r(sandbox.template("done"), sandbox.template("damaged"))
      damaged = File.join(sandbox.template("damaged"), "trials.jsonl")
      lines = File.readlines(damaged)
      File.write(damaged, [lines[0], "{\"batch_id\": \x00 damaged\n", *lines.drop(2)].join)
      FileUtils.mkdir_p(sandbox.template("notarun"))
      File.write(File.join(sandbox.template("notarun"), "notes.txt"), "not a run\n")
      yield sandbox
    end
  end
end
