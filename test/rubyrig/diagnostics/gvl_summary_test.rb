require "test_helper"

class GvlSummaryTest < Minitest::Test
  def event(ph, tid, ts_us, name = nil) = {"ph" => ph, "pid" => 7, "tid" => tid, "ts" => ts_us, "name" => name}.compact

  def test_each_thread_time_by_state
    dir = tmpdir
    events = [
      {"ph" => "M", "pid" => 7, "tid" => 1, "name" => "thread_name", "args" => {"name" => "puma srv tp 001"}},
      event("B", 1, 0, "running"), event("E", 1, 300_000),
      event("B", 1, 300_000, "wants_gvl"), event("B", 2, 100_000, "running"), event("E", 2, 400_000),
      event("E", 1, 400_000), event("B", 1, 400_000, "gc"), event("E", 1, 450_000),
      event("B", 1, 450_000, "waiting"), event("E", 1, 650_000), event("B", 1, 650_000, "sleeping"), event("E", 1, 700_000),
      event("B", 2, 400_000, "died")
    ]
    write(dir, "gvl-7.json", JSON.generate(events))
    summary = Rubyrig::Diagnostics::GvlSummary.collect(dir)
    assert_equal 1, summary["processes"]
    assert_equal 0, summary["omitted_threads"]
    first, second = summary["threads"]
    assert_equal({"pid" => 7, "tid" => 1, "name" => "puma srv tp 001", "running_s" => 0.3, "gc_s" => 0.05,
      "wants_gvl_s" => 0.1, "waiting_s" => 0.25}, first)
    assert_equal "thread 2", second["name"], "a thread without a name is named by its id"
    assert_in_delta 0.3, second["running_s"]
  end

  def test_only_the_busiest_threads_are_kept
    dir = tmpdir
    events = (1..40).flat_map { |tid| [event("B", tid, 0, "running"), event("E", tid, tid * 1000)] }
    write(dir, "gvl-7.json", JSON.generate(events))
    summary = Rubyrig::Diagnostics::GvlSummary.collect(dir)
    assert_equal Rubyrig::Diagnostics::GvlSummary::MAX_THREADS, summary["threads"].size
    assert_equal 8, summary["omitted_threads"]
    assert_equal 9, summary["threads"].first["tid"], "kept in thread order, the least busy dropped"
  end

  def test_nothing_to_collect
    assert_nil Rubyrig::Diagnostics::GvlSummary.collect(tmpdir)
  end
end
