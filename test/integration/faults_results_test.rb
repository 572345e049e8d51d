# The results directory under faults: two rubyrig processes on one directory (the second refuses with
# one line and the first is untouched), and a disk that fills during a run or while a trial is appended
# (a real, small tmpfs): one clear error, every earlier trial intact and readable, and --resume
# completes the run once there is room again.
require "test_helper"
require_relative "faults_support"

class FaultsResultsTest < Minitest::Test
  include SlowTest
  include FaultsSupport

  ERROR_LINE = /\Arubyrig: error: /
  BACKTRACE = /\.rb:\d+:in /

  def err_of(dir) = Rubyrig::Processes::TextFile.read(File.join(dir, "rubyrig.err"))

  def planned_ids(run) = Rubyrig::Processes::TextFile.json(File.join(run, "run.json")).dig("plan", "order").map { |b| b["id"] }

  def trial_ok(trial) = trial["status"] == "ok"

  # A tmpfs of size_kib at a fresh directory for the block; unmounted afterwards in any case.
  def with_tmpfs(size_kib)
    needs_root("mounting a tmpfs")
    point = File.join(tmpdir, "disk")
    FileUtils.mkdir_p(point)
    mounted = system("mount", "-t", "tmpfs", "-o", "size=#{size_kib}k,mode=0755", "rubyrig-test", point, err: File::NULL)
    needs(mounted, "mount -t tmpfs was refused here")
    yield point
  ensure
    system("umount", point) || system("umount", "-l", point) if mounted
  end

  # Writes a file until the file system refuses more.
  def fill(dir)
    File.open(File.join(dir, "filler"), "w") do |f|
      loop { f.syswrite("x" * 65_536) }
    rescue Errno::ENOSPC # full: what the test wanted
      nil
    end
  end

  def test_a_second_rubyrig_on_the_same_results_refuses_with_one_line_and_the_first_is_untouched
    dir = tmpdir
    run = File.join(dir, "run")
    # The first rubyrig's first batch ends at once and every later one waits while `hold` exists: it
    # holds the results until the test lets it go, however long the second ones take on a busy host.
    hold = write(dir, "hold", "")
    script = "begin; Dir.mkdir(ARGV[1]); rescue Errno::EEXIST; sleep 0.05 while File.exist?(ARGV[0]); end"
    first = start_rubyrig("compare", "-r", "system", "--batches", "6", "--results", run,
      "--", "ruby", "-e", script, hold, File.join(dir, "first-batch"), dir: dir)
    wait_for(timeout_s: READY_S) { trial_lines(run).size >= 1 }
    meta = Rubyrig::Processes::TextFile.json(File.join(run, "run.json"))
    [["compare", "-r", "system", "--batches", "2", "--results", run, "--", "ruby", "-e", "1"], ["run", "--resume", run]].each do |args|
      second_dir = tmpdir
      second = start_rubyrig(*args, dir: second_dir)
      _, status = Process.wait2(second)
      assert_equal 1, status.exitstatus
      assert_equal ["rubyrig: error: #{run} is in use by another rubyrig process (pid #{first}); wait for it to finish or stop it, " \
        "or give another --results\n"], err_of(second_dir).lines, args.first
    end
    File.delete(hold)
    _, status = Process.wait2(first)
    assert_equal 0, status.exitstatus, err_of(dir)
    assert_equal meta, Rubyrig::Processes::TextFile.json(File.join(run, "run.json")).except("finished_at", "host_after"), "the second process wrote nothing"
    assert_equal planned_ids(run).sort, trial_lines(run).map { |t| t["batch_id"] }.sort
  end

  def test_two_rubyrigs_started_together_on_one_directory_one_runs_and_one_refuses
    dir = tmpdir
    run = File.join(dir, "run")
    dirs = [tmpdir, tmpdir]
    pids = dirs.map do |d|
      start_rubyrig("compare", "-r", "system", "--batches", "3", "--results", run, "--", "ruby", "-e", "sleep 0.2", dir: d)
    end
    statuses = pids.map { |pid| Process.wait2(pid).last.exitstatus }
    assert_equal [0, 1], statuses.sort
    loser = dirs[statuses.index(1)]
    lines = err_of(loser).lines
    assert_equal 1, lines.size, lines.join
    assert_match(/\Arubyrig: error: #{Regexp.escape(run)} (is in use by another rubyrig process|already holds a run)/, lines.first)
    assert_equal planned_ids(run).sort, trial_lines(run).map { |t| t["batch_id"] }.sort
    assert(trial_lines(run).all? { |t| trial_ok(t) })
  end

  # The disk fills at a moment the test does not choose: before a batch (not started), while a driver
  # or the probe's files are written (could not write its files), or after it (files may be cut short).
  def test_a_disk_that_fills_during_a_run_stops_it_with_one_line_and_resume_completes_it
    with_tmpfs(8192) do |disk|
      dir = tmpdir
      run = File.join(disk, "run")
      pid = start_rubyrig("compare", "-r", "system", "--batches", "20", "--results", run,
        "--", "ruby", "-e", "sleep 0.3", dir: dir)
      wait_for(timeout_s: READY_S) { trial_lines(run).size >= 2 }
      fill(disk)
      kept = File.binread(File.join(run, "trials.jsonl"))
      _, status = Process.wait2(pid)
      assert_equal 1, status.exitstatus
      err = err_of(dir)
      errors = err.lines.grep(ERROR_LINE)
      assert_equal 1, errors.size, err
      assert_match(/\Arubyrig: error: the file system of #{Regexp.escape(run)} is full \(\d+ KiB free, rubyrig needs 1 MiB\), so batch \S+ was not (started|recorded \((its files may be cut short|rubyrig could not write its files)\)); every trial so far is intact in #{Regexp.escape(run)}\/trials\.jsonl: free space, then continue with `rubyrig run --resume #{Regexp.escape(run)}`$/, errors.first)
      refute_match BACKTRACE, err
      text = File.binread(File.join(run, "trials.jsonl"))
      assert text.start_with?(kept), "every trial recorded before the disk filled is unchanged"
      assert text.end_with?("\n")
      recorded = trial_lines(run)
      assert_operator recorded.size, :>=, 2
      assert_operator recorded.size, :<, 20
      assert(recorded.all? { |t| trial_ok(t) }, "no batch was recorded as failed because of the disk")

      File.delete(File.join(disk, "filler"))
      status, out, err = run_cli("run", "--resume", run)
      assert_equal 0, status, err
      assert_match(/Results: #{Regexp.escape(run)}/, out)
      assert File.binread(File.join(run, "trials.jsonl")).start_with?(text)
      trials = trial_lines(run)
      assert_equal planned_ids(run).sort, trials.map { |t| t["batch_id"] }.sort, "every planned batch exactly once"
      assert(trials.all? { |t| trial_ok(t) })
    end
  end

  # The disk fills while trials are appended: each append either lands whole or is undone with one
  # error naming the fix; the file keeps every complete line and reads back.
  def test_a_trial_appended_to_a_full_disk_is_undone_and_the_earlier_ones_read_back
    with_tmpfs(256) do |disk|
      store = Rubyrig::Results::Store.create(File.join(disk, "run"), Rubyrig::Results::RunMeta.build(name: "full"))
      trial = ->(i) {
        Rubyrig::Results::Trial.new(batch_id: "c0-b#{i}", cell_key: "a | w", runtime: "a", workload: "w", params: {}, status: "ok",
          metrics: {"wall_s" => 1.5}, warnings: [i.to_s * 600])
      }
      3.times { |i| store.append(trial.call(i)) }
      fill(disk)
      appended = 3
      error = nil
      20.times do
        store.append(trial.call(appended))
        appended += 1
      rescue Rubyrig::StoreError => e
        error = e
        break
      end
      refute_nil error, "20 trials of 1 KB fitted on a full tmpfs"
      assert_match(/\Acould not write the trial of batch c0-b#{appended} to \S+trials\.jsonl: No space left on device; every earlier trial is intact: free space, then continue with `rubyrig run --resume \S+`\z/, error.message)
      text = File.binread(store.path("trials.jsonl"))
      assert text.end_with?("\n")
      assert_equal (0...appended).map { |i| "c0-b#{i}" }, store.trials.map(&:batch_id)
      assert_equal appended, text.lines.size
    ensure
      store&.unlock
    end
  end
end
