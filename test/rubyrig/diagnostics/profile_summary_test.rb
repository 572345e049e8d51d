require "test_helper"

class ProfileSummaryTest < Minitest::Test
  def test_processes_are_added_up_into_shares
    dir = tmpdir
    write(dir, "stackprof-1.frames.json", JSON.generate("profiler" => "stackprof", "samples" => 30,
      "frames" => [{"name" => "A#run", "self" => 20, "total" => 30}, {"name" => "B#step", "self" => 10, "total" => 10}]))
    write(dir, "stackprof-2.frames.json", JSON.generate("profiler" => "stackprof", "samples" => 10,
      "frames" => [{"name" => "B#step", "self" => 10, "total" => 10}, {"name" => "rec", "self" => 0, "total" => 25}]))
    summary = Rubyrig::Diagnostics::ProfileSummary.collect(dir)
    assert_equal 40, summary["samples"]
    assert_equal 2, summary["processes"]
    a = summary["frames"].find { |f| f["name"] == "A#run" }
    assert_in_delta 0.5, a["self_share"]
    assert_in_delta 0.75, a["total_share"]
    assert_in_delta 0.5, summary["frames"].find { |f| f["name"] == "B#step" }["self_share"]
    assert_in_delta 0.625, summary["frames"].find { |f| f["name"] == "rec" }["total_share"]
  end

  def test_nothing_to_collect
    assert_nil Rubyrig::Diagnostics::ProfileSummary.collect(tmpdir)
  end
end
