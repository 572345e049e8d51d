require "test_helper"

class StoreTest < Minitest::Test
  def trial(id, status: "ok")
    Rubyrig::Results::Trial.new(batch_id: id, cell_key: "a | w", runtime: "a", workload: "w", params: {}, status: status,
      metrics: {"wall_s" => 1.5})
  end

  def test_trials_are_appended_and_read_back
    store = Rubyrig::Results::Store.create(File.join(tmpdir, "run"), Rubyrig::Results::RunMeta.build(name: "x"))
    store.append(trial("c0-b1"))
    store.append(trial("c0-b2", status: "failed"))
    trials = store.trials
    assert_equal %w[c0-b1 c0-b2], trials.map(&:batch_id)
    assert_equal({"wall_s" => 1.5}, trials.first.metrics)
    assert trials.first.ok?
    assert trials.last.failed?
  end

  # `--results rel` once failed every http batch: Puma, started in the app's directory, could not find
  # rel/artifacts/.../puma.rb.
  def test_a_relative_directory_is_kept_absolute
    dir = tmpdir
    store = Dir.chdir(dir) { Rubyrig::Results::Store.create("run", Rubyrig::Results::RunMeta.build(name: "x")) }
    assert store.dir.start_with?("/"), store.dir
    assert_equal File.join(File.realpath(dir), "run"), File.realpath(store.dir)
    assert_equal File.join(store.dir, "artifacts", "c0-b1"), store.prepare_artifacts_dir("c0-b1")
  end

  def test_a_torn_last_line_is_ignored_and_repaired
    store = Rubyrig::Results::Store.create(File.join(tmpdir, "run"), Rubyrig::Results::RunMeta.build(name: "x"))
    store.append(trial("c0-b1"))
    File.write(store.path("trials.jsonl"), '{"batch_id":"c0-b2","sta', mode: "a")
    assert_equal ["c0-b1"], store.trials.map(&:batch_id)
    store.repair!
    store.append(trial("c0-b2"))
    assert_equal %w[c0-b1 c0-b2], store.trials.map(&:batch_id)
  end

  def test_a_corrupt_line_in_the_middle_is_skipped_with_a_warning_that_names_it
    store = Rubyrig::Results::Store.create(File.join(tmpdir, "run"), Rubyrig::Results::RunMeta.build(name: "x"))
    store.append(trial("c0-b1"))
    File.write(store.path("trials.jsonl"), "{\"batch_id\":\"c0-b2\",\"st\x00\xff garbage\n", mode: "ab")
    store.append(trial("c0-b3"))
    reading = store.read_trials
    assert_equal %w[c0-b1 c0-b3], reading.trials.map(&:batch_id)
    assert_equal 1, reading.skipped.size
    assert_match(/\A#{Regexp.escape(store.path("trials.jsonl"))}:2 is not valid JSON \(.+\); skipped, so its batch counts as not run \(`rubyrig run --resume` measures it again\)\z/,
      reading.skipped.first)
    assert_equal %w[c0-b1 c0-b3], store.trials.map(&:batch_id)
    store.repair!
    assert_equal 3, File.readlines(store.path("trials.jsonl")).size, "repair! only drops a torn last line"
  end

  def test_json_that_is_not_a_trial_is_skipped_with_what_is_wrong
    store = Rubyrig::Results::Store.create(File.join(tmpdir, "run"), Rubyrig::Results::RunMeta.build(name: "x"))
    good = trial("c0-b1").to_h.transform_keys(&:to_s)
    lines = [
      [good, nil],
      [[1, 2], "is not a trial record (a list instead of an object)"],
      [good.except("status"), "is not a trial record (no status)"],
      [good.merge("metrics" => nil), "is not a trial record (no metrics)"],
      [good.merge("metrics" => {"wall_s" => "fast"}), "is not a trial record (metric wall_s is not a number)"],
      [good.merge("params" => "a=1"), "is not a trial record (params is a string instead of an object)"],
      [good.merge("warnings" => [1]), "is not a trial record (a warning or artifact is not a string)"],
      [good.merge("batch_id" => "../../etc"), 'is not a trial record (batch_id "../../etc" is not a batch id)'],
      ["", "is not valid JSON"]
    ]
    File.write(store.path("trials.jsonl"), lines.map { |data, _| (data.is_a?(String) ? data : JSON.generate(data)) + "\n" }.join)
    reading = store.read_trials
    assert_equal ["c0-b1"], reading.trials.map(&:batch_id)
    lines.drop(1).each_with_index do |(_, problem), i|
      assert reading.skipped[i].start_with?("#{store.path("trials.jsonl")}:#{i + 2} #{problem}"), reading.skipped[i]
    end
  end

  def test_a_torn_last_line_is_named_too
    store = Rubyrig::Results::Store.create(File.join(tmpdir, "run"), Rubyrig::Results::RunMeta.build(name: "x"))
    store.append(trial("c0-b1"))
    File.write(store.path("trials.jsonl"), '{"batch_id":"c0-b2","sta', mode: "a")
    assert_equal ["#{store.path("trials.jsonl")}:2 was cut short (rubyrig stopped while writing it); skipped, so its batch counts " \
      "as not run (`rubyrig run --resume` measures it again)"], store.read_trials.skipped
  end

  def test_a_directory_with_a_run_is_not_overwritten
    dir = File.join(tmpdir, "run")
    Rubyrig::Results::Store.create(dir, Rubyrig::Results::RunMeta.build(name: "x")).unlock
    e = assert_raises(Rubyrig::StoreError) { Rubyrig::Results::Store.create(dir, Rubyrig::Results::RunMeta.build(name: "y")) }
    assert_match(/already holds a run: resume it with `rubyrig run --resume/, e.message)
    assert_equal({"name" => "x"}, Rubyrig::Results::Store.open(dir).meta)
    Rubyrig::Results::Store.open(dir).lock!
  end

  def test_opening_something_that_is_not_a_run
    e = assert_raises(Rubyrig::StoreError) { Rubyrig::Results::Store.open(tmpdir) }
    assert_match(/is not a rubyrig results directory/, e.message)
  end

  def test_meta_updates_are_atomic_replacements
    store = Rubyrig::Results::Store.create(File.join(tmpdir, "run"), Rubyrig::Results::RunMeta.build(name: "x"))
    store.update_meta { |m| m.with(finished_at: "now") }
    assert_equal({"name" => "x", "finished_at" => "now"}, store.meta)
    refute File.exist?(store.path("run.json.tmp"))
  end

  def test_one_writer_at_a_time_and_the_refusal_names_the_holder
    dir = File.join(tmpdir, "run")
    store = Rubyrig::Results::Store.create(dir, Rubyrig::Results::RunMeta.build(name: "x"))
    e = assert_raises(Rubyrig::StoreError) { Rubyrig::Results::Store.open(dir).lock! }
    assert_equal "#{dir} is in use by another rubyrig process (pid #{Process.pid}); wait for it to finish or stop it, " \
      "or give another --results", e.message
    e = assert_raises(Rubyrig::StoreError) { Rubyrig::Results::Store.create(dir, Rubyrig::Results::RunMeta.build(name: "y")) }
    assert_match(/in use by another rubyrig process/, e.message)
    store.unlock
    Rubyrig::Results::Store.open(dir).lock!
  end

  def test_a_batch_measured_again_starts_with_an_empty_artifacts_dir
    store = Rubyrig::Results::Store.create(File.join(tmpdir, "run"), Rubyrig::Results::RunMeta.build(name: "x"))
    dir = store.prepare_artifacts_dir("c0-b1")
    File.write(File.join(dir, "probe-1.json"), "{}")
    assert_equal dir, store.prepare_artifacts_dir("c0-b1")
    assert_empty Dir.children(dir)
    File.write(File.join(dir, "probe-1.json"), "{}")
    assert_equal ["probe-1.json"], Dir.children(store.artifacts_dir("c0-b1")), "asking for the path changes nothing"
  end
end
