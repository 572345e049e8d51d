require "test_helper"
require "support_report"

class ProfileComparisonTest < Minitest::Test
  include SupportReport

  def profile(shares)
    {"profiler" => "stackprof", "samples" => 100, "processes" => 1,
     "frames" => shares.map { |name, (own, total)| {"name" => name, "self_share" => own, "total_share" => total} }}
  end

  def report_with_profiles
    meta = synthetic_meta
    trials = synthetic_trials(meta, {"base" => [1.0] * 5, "fast" => [1.0] * 5})
    trials << Rubyrig::Results::Trial.new(batch_id: "c0-profile", cell_key: "base | builtin:nbody | n=1", runtime: "base",
      workload: "builtin:nbody", params: {"n" => 1}, diagnostic: "profile", status: "ok", metrics: {},
      samples: {"profile" => profile("work" => [0.7, 0.9], "reload" => [0.1, 0.1], "main" => [0.0, 1.0])})
    trials << Rubyrig::Results::Trial.new(batch_id: "c1-profile", cell_key: "fast | builtin:nbody | n=1", runtime: "fast",
      workload: "builtin:nbody", params: {"n" => 1}, diagnostic: "profile", status: "ok", metrics: {},
      samples: {"profile" => profile("work" => [0.4, 0.5], "reload" => [0.5, 0.5], "main" => [0.0, 1.0])})
    Rubyrig::Analysis.new.analyze(meta: meta, trials: trials)
  end

  def test_top_frames_side_by_side_and_the_frames_that_grew
    group = report_with_profiles.profiles.first
    assert_equal %w[base fast], group.profiles.keys
    assert_equal %w[work reload], group.top["base"].map { |f| f["name"] }
    assert_equal %w[reload work], group.top["fast"].map { |f| f["name"] }
    grew = group.growth.fetch("fast")
    assert_equal ["reload"], grew.map { |f| f["name"] }
    assert_in_delta 0.4, grew.first["delta"]
  end

  def test_profile_batches_stay_out_of_the_statistics
    report = report_with_profiles
    assert_equal 5, report.summary("base | builtin:nbody | n=1", "iterations_per_s").n
    text = Rubyrig::Reporters::Terminal.new(report, color: false).render
    assert_match(/Profiles \(stackprof, top frames by self time\) · builtin:nbody · n=1/, text)
    assert_match(/Grew most from base to fast · builtin:nbody · n=1 \(share of samples, inclusive\)\n.*\n\s+reload\s+10\.0%\s+50\.0%\s+\+40\.0 pp/, text)
    assert_match(/\| `reload` \| 10\.0% \| 50\.0% \| \+40\.0 pp \|/, Rubyrig::Reporters::Markdown.new(report).render)
  end
end
