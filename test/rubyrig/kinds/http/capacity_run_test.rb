# A capacity search inside a batch, with a simulated server in place of httperf and Puma
# (support/queue_simulation.rb): the runs each step makes and their labels, the server checked after
# each, the metrics, samples and warnings a batch records, and why a batch fails.
require "test_helper"
require "support/queue_simulation"

class CapacityRunTest < Minitest::Test
  Http = Rubyrig::Kinds::Http

  # log: a run also appends to it one request-log line per answer, as Puma would (step_log: its StepLog).
  def capacity_run(service_s:, settings: {}, slo: "p99 < 200ms", generator_max_per_s: Float::INFINITY, number: 0, step_log: nil, log: nil)
    @labels = []
    @checks = []
    settings = Http::Capacity::DEFAULTS.merge("step_s" => 5, "warmup_s" => 2).merge(settings)
    simulated = ->(rate, duration_s) do
      QueueSimulation.probe(service_s: service_s, arrival: "constant", step_s: duration_s, warmup_s: 0, seed: 1,
        generator_max_per_s: generator_max_per_s).call(rate)
    end
    run = ->(rate, duration_s, label) do
      @labels << label
      simulated.call(rate, duration_s).tap { |measured| log&.call(measured, label) }
    end
    Http::CapacityRun.new(settings: settings, objective: Http::Objective.parse(slo, max_error_rate: 0.01).first, batch_number: number,
      generator: ->(rate) { rate }, run: run, check: ->(what) { @checks << what }, traffic: step_log).measure
  end

  def test_each_step_warms_then_measures_and_the_batch_records_the_capacity
    run = capacity_run(service_s: 0.01)
    steps = run.sample["steps"]
    assert_equal run.metrics["capacity_steps"], steps.size
    assert_equal (1..steps.size).flat_map { |i| [format("capacity-%02d-warmup", i), format("capacity-%02d", i)] }, @labels
    assert_equal "during the warmup of capacity step 1 (10/s)", @checks.first
    assert_equal 2 * steps.size, @checks.size
    capacity = run.metrics.fetch("capacity_per_s")
    assert_operator capacity, :>, 90
    assert_operator capacity, :<=, 105
    assert_operator run.metrics.fetch("capacity_failed_at_per_s") / capacity, :<=, 1.05
    assert_equal capacity, run.measured.offered_rate_per_s, "the batch's latency is the capacity step's"
    assert_equal 2, run.warmup.duration_s
    assert_equal({"objective" => "p99 < 200 ms", "limit" => "objective", "growth" => 2, "resolution" => 0.05, "tolerance" => 0.05, "step_s" => 5, "warmup_s" => 2},
      run.sample.slice("objective", "limit", "growth", "resolution", "tolerance", "step_s", "warmup_s"))
    assert_equal steps.select { |s| s["sustained"] }.map { |s| s["offered_rate_per_s"] }.max, capacity
    assert_empty run.warnings
    assert_nil run.problem
  end

  def test_batches_start_from_different_rates
    starts = (1..3).map { |n| capacity_run(service_s: 0.01, number: n).sample["start_rate_per_s"] }
    assert_equal 3, starts.uniq.size
  end

  def test_without_step_warmups_only_measured_runs
    run = capacity_run(service_s: 0.01, settings: {"warmup_s" => 0})
    assert(@labels.none? { |l| l.end_with?("-warmup") })
    assert_nil run.warmup
  end

  def test_a_generator_that_falls_behind_leaves_no_capacity_and_says_so
    run = capacity_run(service_s: 0.001, generator_max_per_s: 150)
    refute run.metrics.key?("capacity_per_s")
    assert_nil run.problem
    assert_match(%r{\Athe load generator fell behind at 1[45]\d(\.\d+)?/s before the server missed its objective: the server sustains at least 1[34]\d(\.\d+)?/s at p99 < 200 ms}, run.warnings.first)
    assert_equal "load generator", run.sample["limit"]
  end

  def test_steps_that_run_out_leave_no_capacity_and_say_so
    run = capacity_run(service_s: 0.001, settings: {"max_steps" => 3})
    refute run.metrics.key?("capacity_per_s")
    assert_match(/used its 3 steps before it narrowed the capacity to 5%: the server sustains at least 40\/s/, run.warnings.first)
  end

  def test_a_server_that_sustains_no_rate_fails_the_batch_with_the_reason
    run = capacity_run(service_s: 1.0, slo: "p99 < 100ms")
    assert_nil run.measured
    assert_match(%r{\Ano offered rate down to 5/s met p99 < 100 ms \(there: p99 [\d.]+ s is not < 100 ms\); lower capacity: start_rate_per_s or relax slo\z}, run.problem)
  end

  # Every step, warmups included, writes its answers to the one request log, in a 3:1 mix of two
  # endpoints, each line's service time the step's number in milliseconds (a warmup's: 0.5 ms more); the
  # batch's per-endpoint figures must count the capacity step's measured answers only. The search ends
  # with a step above the capacity, so the last window is not the one wanted.
  def test_with_traffic_the_endpoints_are_the_capacity_steps_only
    dir = tmpdir
    log_path = File.join(dir, "server-stdout.log")
    File.write(log_path, "Puma starting in single mode...\n")
    traffic = Http::Traffic.new({"requests" => [{"name" => "a", "method" => "GET", "path" => "/a", "weight" => 3},
      {"name" => "b", "method" => "GET", "path" => "/b", "weight" => 1}]})
    batch = Http::Traffic::Batch.new(traffic, dir: dir, round: 1)
    written = {}
    log = ->(measured, label) do
      service_s = (label[/\d+/].to_i + (label.end_with?("warmup") ? 0.5 : 0)) / 1000.0
      lines = Array.new(measured.requests) { |i| %(127.0.0.1 - - [28/Nov/2026:18:00:00 +0000] "GET #{(i % 4 == 3) ? "/b" : "/a"} HTTP/1.1" 200 - #{service_s}\n) }
      File.write(log_path, lines.join, mode: "a")
      written[label] = measured.requests
    end
    run = capacity_run(service_s: 0.01, step_log: Http::CapacityRun::StepLog.new(batch, log_path), log: log)
    metrics = batch.metrics(run.measured)
    steps = run.sample["steps"]
    number = steps.rindex { |s| s["offered_rate_per_s"] == run.metrics["capacity_per_s"] } + 1
    refute steps.last["sustained"], "the search ends above the capacity: #{steps}"
    assert_in_delta number / 1000.0, metrics["service_mean_s"], 1e-9, "the capacity step's lines only (step #{number} of #{steps.size})"
    assert_equal written.fetch(format("capacity-%02d", number)), metrics["logged_request_count"], "the capacity step's answers: #{written}"
    assert_operator written.values.sum, :>, 3 * metrics["logged_request_count"], "the log holds every step's"
    assert_in_delta 0.75, metrics["endpoint.a.share"], 0.01
    assert_equal metrics["logged_request_count"], metrics["endpoint.a.request_count"] + metrics["endpoint.b.request_count"]
    assert_in_delta run.metrics["capacity_per_s"], metrics["logged_request_count"] / run.measured.duration_s, run.metrics["capacity_per_s"] * 0.05,
      "the endpoints' requests are the found rate times the step"
  end

  def test_the_step_artifacts_are_listed_in_order
    dir = tmpdir
    %w[capacity-02.json capacity-01-warmup-1.log capacity-01-1.log capacity-01.json puma.rb httperf.json].each { |n| write(dir, n, "") }
    assert_equal %w[capacity-01-1.log capacity-01-warmup-1.log capacity-01.json capacity-02.json], Http::CapacityRun.artifacts(dir)
  end
end
