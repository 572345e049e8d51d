# Real Puma and httperf in an open loop, on an app whose percentiles hold by construction
# (test/fixtures/http-stall): one Puma thread, every request takes a lock that a background thread
# holds for 200 ms of every 2 s, so at a rate far below capacity 10% of arrivals wait a uniform 0-200 ms
# and the rest about 1 ms: p95 about 100 ms, p99 about 180 ms. A closed loop cannot show this (its
# connections wait with the server); arrivals at a rate do, whatever the server does. 40/s for 60 s
# gives 2,400 arrivals, 240 in stalls: the bands (70-130 ms, 150-210 ms) are over 3 standard deviations
# of both the share of arrivals in stalls and the percentile of the uniform wait.
require "test_helper"

class HttpOpenLoopTest < Minitest::Test
  include SlowTest

  APP = File.join(RubyrigTest::ROOT, "test/fixtures/http-stall/config.ru")

  def test_latency_counts_from_when_each_request_was_due
    dir = tmpdir
    exp = write(dir, "open.yml", <<~YAML)
      runtimes: [system]
      workloads:
        - app: #{APP}
          load_model: open
          params: {rate: 40}
          duration_s: 60
          warmup_s: 2
          boot_timeout_s: 300
      batches: 1
    YAML
    results = File.join(dir, "run")
    status, out, err = run_cli("run", exp, "--results", results)
    assert_equal 0, status, "#{out}\n#{err}"
    trial = Rubyrig::Results::Store.open(results).trials.first
    assert trial.ok?, [trial.status, trial.reason, trial.warnings].inspect
    m = trial.metrics
    assert_operator m["request_count"], :>, 2000
    assert_in_delta 0.100, m["latency_p95_s"], 0.030, "the median of the 10% that wait a uniform 0-200 ms"
    assert_in_delta 0.180, m["latency_p99_s"], 0.030, "the 90th percentile of that uniform wait"
    assert_operator m["latency_p50_s"], :<, 0.02, "most arrivals find the lock free"
    assert_equal 0, m["latency_synthesized_count"], "httperf synthesizes no sample"
    assert_equal "open loop (httperf, 40/s Poisson)", trial.facts["load"]
    assert_equal "open", trial.facts["load_model"]
    if trial.samples.dig("httperf", "behind")
      refute m.key?("offered_rate_per_s"), "a generator that fell behind reports no offered rate"
      assert trial.warnings.any? { |w| w.include?("httperf fell behind the offered 40 requests/s") }, trial.warnings.inspect
    else
      assert_equal 40.0, m["offered_rate_per_s"]
      assert_in_delta 40.0, m["achieved_rate_per_s"], 40.0 * 0.1, "a 60 s Poisson stream at 40/s: within 10%"
    end
    log = Rubyrig::Processes::TextFile.read(Dir.glob(File.join(results, "artifacts", "*", "httperf-1.log")).first)
    assert_match(/--period=e0\.025\b/, log, "Poisson arrivals, a mean of 25 ms apart")
    assert_match(/--num-calls=1\b/, log)
  end
end
