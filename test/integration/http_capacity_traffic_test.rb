# A capacity search with a traffic mix on real Puma and httperf: a 3:1 mix of two endpoints whose
# service times are known (test/fixtures/capacity-mix: 10 ms and 30 ms, one Puma thread, so a mean of
# 15 ms and at most about 67 requests/s). The search finds a capacity no higher than the thread allows,
# and the batch's Endpoints figures come from the capacity step's part of Puma's request log only: the
# shares are the mix's, and the counts are the found rate times one step, not the sum over the steps.
# Short steps (3 s) keep the test short; the capacity's accuracy is http_capacity_test's.
require "test_helper"

class HttpCapacityTrafficTest < Minitest::Test
  include SlowTest

  APP = File.join(RubyrigTest::ROOT, "test", "fixtures", "capacity-mix", "config.ru")
  STEP_S = 3
  MEAN_SERVICE_S = (3 * 0.010 + 0.030) / 4

  def test_the_endpoints_of_a_capacity_batch_are_its_capacity_steps
    dir = tmpdir
    exp = write(dir, "capacity.yml", <<~YAML)
      runtimes: [system]
      workloads:
        - app: #{APP}
          load_model: open
          arrival: constant
          slo: p99 < 1s
          capacity: {start_rate_per_s: 25, step_s: #{STEP_S}, warmup_s: 1}
          path: /fast
          boot_timeout_s: 300
          traffic:
            requests:
              - {name: fast, path: /fast, weight: 3}
              - {name: slow, path: /slow, weight: 1}
      batches: 1
      seed: 35
    YAML
    results = File.join(dir, "run")
    status, out, err = run_cli("run", exp, "--results", results)
    assert_equal 0, status, "#{out}\n#{err}"
    trial = Rubyrig::Results::Store.open(results).trials.first
    assert trial.ok?, [trial.status, trial.reason, trial.warnings].inspect
    m = trial.metrics
    capacity = m.fetch("capacity_per_s")
    steps = trial.samples.dig("capacity", "steps")
    seen = "capacity #{capacity}/s; #{m.select { |k, _| k.start_with?("endpoint.") || k.include?("request_count") }}; steps #{steps.map { |s| s.slice("offered_rate_per_s", "answered_per_s", "sustained") }}"
    assert_operator capacity * MEAN_SERVICE_S, :<=, 1.1, "one thread serves at most 1 / mean service time: #{seen}"
    assert_operator steps.size, :>=, 3, seen
    logged = m.fetch("logged_request_count")
    assert_equal logged, m["endpoint.fast.request_count"] + m["endpoint.slow.request_count"], seen
    assert_equal 0, m["endpoint.fast.error_count"] + m["endpoint.slow.error_count"], seen
    assert_in_delta 0.75, m["endpoint.fast.share"], 0.03, seen
    assert_in_delta 0.25, m["endpoint.slow.share"], 0.03, seen
    # The capacity step's answers: its rate times its duration, within the 5% tolerance the search
    # allows and the few requests in flight when the step's window opens and closes.
    assert_in_delta capacity * STEP_S, logged, capacity * STEP_S * 0.1 + 3, seen
    assert_in_delta m["request_count"], logged, m["request_count"] * 0.05 + 3, "the server's log and httperf agree on the step: #{seen}"
    all_steps = steps.sum { |s| s["answered_per_s"] * STEP_S }
    assert_operator logged, :<, all_steps / 2, "not the sum over the #{steps.size} steps (#{all_steps.round}): #{seen}"
    assert_in_delta 0.010, m["endpoint.fast.service_p50_s"], 0.005, seen
    assert_in_delta 0.030, m["endpoint.slow.service_p50_s"], 0.005, seen
    assert_match(/fast/, Rubyrig::Processes::TextFile.read(File.join(results, "report.md")))
  end
end
