require "test_helper"

# The store when a forked writer dies half way: complete trials kept, the torn one undone.
class StoreIntegrationTest < Minitest::Test
  include SlowTest

  def trial(id)
    Rubyrig::Results::Trial.new(batch_id: id, cell_key: "a | w", runtime: "a", workload: "w", params: {}, status: "ok",
      metrics: {"wall_s" => 1.5})
  end

  # A write that fails half-way (here: the file-size limit, as a full disk would) while the torn line is
  # dropped must not take complete trials with it.
  def test_a_repair_that_fails_half_way_keeps_every_complete_trial
    store = Rubyrig::Results::Store.create(File.join(tmpdir, "run"), {"name" => "x"})
    10.times { |i| store.append(trial("c0-b#{i}")) }
    File.write(store.path("trials.jsonl"), '{"batch_id":"c0-b10","sta', mode: "a")
    pid = fork do
      Signal.trap("XFSZ", "IGNORE")
      Process.setrlimit(:FSIZE, 100)
      begin
        store.repair!
      rescue Errno::EFBIG # the limit stops a rewrite; shortening the file is not limited
        nil
      end
      exit!(0)
    end
    Process.wait(pid)
    assert_equal (0...10).map { |i| "c0-b#{i}" }, store.trials.map(&:batch_id)
    refute File.binread(store.path("trials.jsonl")).include?("c0-b10"), "the torn line is gone"
  end

  # A trial whose write fails half-way (the kernel's file-size limit cuts it, as a full disk would) is
  # undone: the file holds every earlier trial and nothing of the cut one, and the error names the fix.
  def test_a_trial_cut_by_a_failing_write_is_undone_and_the_error_says_how_to_go_on
    store = Rubyrig::Results::Store.create(File.join(tmpdir, "run"), {"name" => "x"})
    3.times { |i| store.append(trial("c0-b#{i}")) }
    before = File.binread(store.path("trials.jsonl"))
    reader, writer = IO.pipe
    pid = fork do
      reader.close
      Signal.trap("XFSZ", "IGNORE")
      Process.setrlimit(:FSIZE, before.bytesize + 40)
      begin
        store.append(trial("c0-b3"))
      rescue Rubyrig::StoreError => e
        writer.write(e.message)
      end
      exit!(0)
    end
    writer.close
    message = reader.read
    Process.wait(pid)
    assert_equal before, File.binread(store.path("trials.jsonl"))
    assert_equal "could not write the trial of batch c0-b3 to #{store.path("trials.jsonl")}: File too large; every earlier trial " \
      "is intact: fix the disk, then continue with `rubyrig run --resume #{store.dir}`", message
    store.append(trial("c0-b3"))
    assert_equal %w[c0-b0 c0-b1 c0-b2 c0-b3], store.trials.map(&:batch_id)
  end
end
