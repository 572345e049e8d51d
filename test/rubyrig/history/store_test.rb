# The history store on real files: adding runs, reading series back, idempotence, and refusing a damaged
# or foreign store with one line that names the file.
require "test_helper"
require "support/history_runs"

class HistoryStoreTest < Minitest::Test
  include RubyrigTest
  include HistoryRuns

  def setup
    @root = tmpdir
    @history = Rubyrig::History::Store.new(File.join(@root, "history"))
  end

  def run_dir(name, **options) = write_history_run(File.join(@root, name), **options)

  def only(list)
    assert_equal 1, list.size
    list.first
  end

  def test_a_run_adds_one_point_per_cell_and_metric_and_reads_back_as_series
    dir = run_dir("r1", created_at: "2026-11-01T10:00:00Z", values: {"system" => [10.0, 11.0, 12.0], "3.3.8" => [20.0, 21.0, 22.0]},
      interpreters: {"3.3.8" => BUILT}, revision: {"commit" => "a" * 40, "dirty" => false})
    assert_equal 4, @history.add(dir), "2 runtimes x (iterations_per_s, wall_s)"
    series = @history.series
    assert_equal 4, series.size
    rate = series.find { |s| s.runtime == "3.3.8" && s.metric == "iterations_per_s" }
    assert_equal ["builtin:nbody", {"steps" => 100}, "1/s", true, "speed", true], [rate.workload, rate.params, rate.unit, rate.higher_is_better, rate.kind, rate.primary]
    point = only(rate.points)
    assert_equal [20.0, 21.0, 22.0], point.values
    assert_equal ["2026-11-01T10:00:00Z", "fp-alpha", "alpha", "3.3.8", "bbbb000011112222", "a" * 40, false],
      [point.started_at, point.host, point.host_id, point.version, point.build, point.revision, point.dirty]
    assert_equal BUILT.description, point.interpreter
    refute series.find { |s| s.metric == "wall_s" }.primary
    assert series.all?(&:frozen?) && series.flat_map(&:points).all?(&:frozen?)
  end

  def test_adding_a_run_again_adds_nothing_and_points_are_ordered_by_start_time
    late = run_dir("late", created_at: "2026-11-03T10:00:00Z", values: {"system" => [30.0, 31.0]})
    early = run_dir("early", created_at: "2026-11-02T10:00:00Z", values: {"system" => [10.0, 11.0]})
    assert_equal 2, @history.add(late)
    assert_equal 2, @history.add(early)
    assert_equal 0, @history.add(late)
    FileUtils.cp_r(early, File.join(@root, "copied"))
    assert_equal 0, @history.add(File.join(@root, "copied")), "the same run copied elsewhere is the same run"
    rate = @history.series.find { |s| s.metric == "iterations_per_s" }
    assert_equal [[10.0, 11.0], [30.0, 31.0]], rate.points.map(&:values)
    assert_equal 2, Dir.children(@history.runs_dir).size
  end

  def test_only_ok_batches_are_the_sample_and_the_verified_description_is_the_probes
    dir = run_dir("r", created_at: "2026-11-01T10:00:00Z", values: {"system+yjit" => [10.0, 99.0, 12.0]},
      failed: {"c0-b2" => "failed"}, verified: {"system+yjit" => "ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) +YJIT [x86_64-linux-gnu]"})
    @history.add(dir)
    point = only(@history.series.find { |s| s.metric == "iterations_per_s" }.points)
    assert_equal [10.0, 12.0], point.values
    assert_includes point.interpreter, "+YJIT"
  end

  def test_an_unfinished_run_is_refused_and_the_history_is_left_as_it_was
    dir = run_dir("r", created_at: "2026-11-01T10:00:00Z", values: {"system" => [1.0]}, finished: false)
    error = assert_raises(Rubyrig::StoreError) { @history.add(dir) }
    assert_match(/has not finished .*rubyrig run --resume/, error.message)
    refute File.exist?(@history.path)
  end

  def test_a_damaged_run_file_stops_the_read_with_its_name_and_nothing_else_is_lost
    @history.add(run_dir("a", created_at: "2026-11-01T10:00:00Z", values: {"system" => [1.0]}))
    @history.add(run_dir("b", created_at: "2026-11-02T10:00:00Z", values: {"system" => [2.0]}))
    victim, other = Dir[File.join(@history.runs_dir, "*.json")].sort
    kept = File.read(other)
    File.write(victim, File.read(victim)[0, 100])
    error = assert_raises(Rubyrig::StoreError) { @history.series }
    assert_match(/\A#{Regexp.escape(victim)} is damaged \(not valid JSON.*move the file out of the history/, error.message)
    assert_equal kept, File.read(other)
    FileUtils.mv(victim, @root)
    assert_equal 1, @history.series.find { |s| s.metric == "iterations_per_s" }.points.size
  end

  def test_a_record_or_a_history_of_another_format_version_is_refused
    @history.add(run_dir("a", created_at: "2026-11-01T10:00:00Z", values: {"system" => [1.0]}))
    file = only(Dir[File.join(@history.runs_dir, "*.json")])
    File.write(file, JSON.generate(JSON.parse(File.read(file)).merge("format_version" => 99)))
    assert_match(/#{Regexp.escape(file)} is a run record of format 99, and this rubyrig .* reads format 1/,
      assert_raises(Rubyrig::StoreError) { @history.series }.message)
    marker = File.join(@history.path, "history.json")
    File.write(marker, JSON.generate("format" => "rubyrig history", "format_version" => 2))
    assert_match(/history.json says history format 2/, assert_raises(Rubyrig::StoreError) { @history.series }.message)
    File.write(marker, "{")
    assert_match(/history.json is damaged \(not valid JSON/, assert_raises(Rubyrig::StoreError) { @history.series }.message)
  end

  def test_a_folder_that_is_not_a_history_is_refused
    folder = File.join(@root, "busy")
    FileUtils.mkdir_p(folder)
    File.write(File.join(folder, "notes.txt"), "mine")
    error = assert_raises(Rubyrig::StoreError) { Rubyrig::History::Store.new(folder).add(run_dir("a", created_at: "2026-11-01T10:00:00Z", values: {"system" => [1.0]})) }
    assert_match(/is not a rubyrig history \(no history.json\) and not empty/, error.message)
    assert_match(/no history.json\); add a run first/, assert_raises(Rubyrig::StoreError) { Rubyrig::History::Store.new(File.join(@root, "none")).series }.message)
  end

  def test_a_stale_temporary_file_is_ignored_by_readers_and_removed_by_the_next_writer
    @history.add(run_dir("a", created_at: "2026-11-01T10:00:00Z", values: {"system" => [1.0]}))
    stale = File.join(@history.runs_dir, ".tmp-1-abc")
    fresh = File.join(@history.runs_dir, ".tmp-2-def")
    File.write(stale, "{\"run_id\": \"half")
    File.write(fresh, "{\"run_id\": \"half")
    File.utime(Time.now - 120, Time.now - 120, stale)
    assert_equal 1, @history.series.first.points.size
    @history.add(run_dir("b", created_at: "2026-11-02T10:00:00Z", values: {"system" => [2.0]}))
    refute File.exist?(stale), "older than a minute and locked by no one"
    assert File.exist?(fresh), "it may belong to a writer still at work"
  end
end
