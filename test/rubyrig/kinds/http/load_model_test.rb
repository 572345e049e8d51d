# Tests what a batch says of its load model from a generator's Result, without running one: an open
# loop that fell behind reports no offered rate and says why; a closed loop whose generator made up
# samples says how many; the words every report prints beside a cell's latency.
require "test_helper"

class LoadModelTest < Minitest::Test
  Model = Rubyrig::Kinds::Http::LoadModel
  Provenance = Rubyrig::Kinds::Http::LatencyProvenance

  def result(**fields)
    base = {requests: 1000, duration_s: 10.0, bytes: 0, errors: Rubyrig::Load::Result::ERROR_KINDS.to_h { |k| [k, 0] },
            latency_s: {}, cpu_s: 1.0, wall_s: 10.0}
    Rubyrig::Load::Result.new(**base, **fields)
  end

  def open_generator(rate) = Rubyrig::Load::HttperfOpen.new(binary: "/usr/bin/httperf", rate_per_s: rate, arrival: "poisson", timeout_s: 2, cpus: "1")

  def test_an_open_loop_that_fell_behind_reports_the_rate_it_achieved_and_not_the_one_asked
    behind = result(offered_rate_per_s: 1000.0, achieved_rate_per_s: 703.1, behind: true, latency_synthesized_count: 0,
      behind_reasons: ["it started 2314 requests in 3.3 s, 703.1/s of the 1000/s asked"])
    metrics = Model.metrics(behind)
    refute metrics.key?("offered_rate_per_s")
    assert_in_delta 703.1, metrics["achieved_rate_per_s"]
    warnings = Model.warnings(behind, open_generator(1000), 0.99, 0.5)
    assert_equal 1, warnings.size, "a spinning httperf at 99% of its CPU is no saturation warning"
    assert_match(/httperf fell behind the offered 1000 requests\/s \(it started 2314 requests .*\): the batch reports the 703\.1\/s it achieved and no offered rate/, warnings.first)
    kept = result(offered_rate_per_s: 50.0, achieved_rate_per_s: 49.2, behind: false, behind_reasons: [], latency_synthesized_count: 0)
    assert_equal 50.0, Model.metrics(kept)["offered_rate_per_s"]
    assert_equal [], Model.warnings(kept, open_generator(50), 0.95, 0.1)
    assert_match(/httperf had 40% of its CPUs/, Model.warnings(kept, open_generator(50), 0.4, 0.1).first)
  end

  def test_a_closed_loop_says_how_many_samples_wrk_synthesized_from_one_percent_on
    wrk = Rubyrig::Load::Wrk.new(binary: "/usr/bin/wrk", threads: 1, connections: 4, timeout_s: 2, connection: "keepalive")
    made_up = result(requests: 36_827, latency_synthesized_count: 18_535)
    assert_equal({"latency_synthesized_count" => 18_535}, Model.metrics(made_up))
    assert_match(/wrk synthesized 18535 of the 55362 latency samples \(33%/, Model.warnings(made_up, wrk, 0.2, 0.3).first)
    assert_equal [], Model.warnings(result(requests: 1000, latency_synthesized_count: 9), wrk, 0.2, 0.3), "under 1%"
  end

  def trial(facts, metrics) = Struct.new(:facts, :metrics).new(facts, metrics)

  def test_the_words_beside_every_latency_figure
    open = trial({"load" => "open loop (httperf, 20/s Poisson)"}, {"latency_synthesized_count" => 0, "request_count" => 600})
    assert_equal "open loop (httperf, 20/s Poisson); no latency sample synthesized", Provenance.describe([open, open])
    wrk = ->(synth, n) { trial({"load" => "closed loop (wrk, 4 connections)"}, {"latency_synthesized_count" => synth, "request_count" => n}) }
    assert_equal "closed loop (wrk, 4 connections); 200 of 1200 latency samples synthesized by the generator (17%, median batch)",
      Provenance.describe([wrk.call(0, 1000), wrk.call(200, 1000), wrk.call(500, 1000)])
    old = trial({"load_generator" => "wrk"}, {"request_count" => 10})
    assert_equal "wrk; synthesized latency samples not counted", Provenance.describe([old])
    assert_nil Provenance.describe([trial({}, {})])
  end
end
