# Real Puma, wrk and httperf: connection [keepalive, close, client-close] on one app measures all
# three modes, wrk the first two and httperf the third (one process per connection, closing each
# connection itself), with the same result shape; the report names the generator of each cell and
# compares both other modes with keepalive. What holds by construction is checked, never which mode
# is faster (a noisy shared host decides that differently from run to run).
require "test_helper"

class HttpConnectionModesTest < Minitest::Test
  include SlowTest

  CONNECTIONS = 2

  def test_keepalive_close_and_client_close_on_one_app
    dir = tmpdir
    exp = write(dir, "modes.yml", <<~YAML)
      runtimes: [system]
      workloads:
        - builtin: rack-hello
          params: {connection: [keepalive, close, client-close], connections: #{CONNECTIONS}}
          duration_s: 2
          warmup_s: 1
          boot_timeout_s: 300
      batches: 2
      seed: 11
    YAML
    results = File.join(dir, "run")
    status, out, err = run_cli("run", exp, "--results", results)
    assert_equal 0, status, "#{out}\n#{err}"
    store = Rubyrig::Results::Store.open(results)
    trials = store.trials
    assert_equal %w[client-close close keepalive], trials.map { |t| t.params["connection"] }.uniq.sort
    assert_equal 6, trials.size
    trials.each do |t|
      mode = t.params["connection"]
      generator = (mode == "client-close") ? "httperf" : "wrk"
      assert t.ok?, [mode, t.status, t.reason, t.warnings].inspect
      assert_equal generator, t.facts["load_generator"]
      sample = t.samples.fetch(generator)
      assert_equal sample["requests"], t.metrics["request_count"]
      assert_operator t.metrics["request_count"], :>, 0
      assert_in_delta t.metrics["request_count"] / t.metrics["measured_s"], t.metrics["requests_per_s"], 1e-6
      assert_operator t.metrics["latency_p50_s"], :<=, t.metrics["latency_p99_s"]
      assert_operator t.metrics["latency_p99_s"], :<=, t.metrics["latency_max_s"]
      assert t.samples.key?("#{generator}_warmup"), "the warmup ran with the same generator"
      artifacts = File.join(results, "artifacts", t.batch_id)
      if generator == "httperf"
        logs = Dir.glob(File.join(artifacts, "httperf-[0-9]*.log"))
        assert_equal CONNECTIONS, logs.size, "one httperf process per connection"
        logs.each { |log| assert_match(/--num-calls=1\b/, Rubyrig::Processes::TextFile.read(log), "one call per connection: the client closes it") }
        durations = Rubyrig::Processes::TextFile.json(File.join(artifacts, "httperf.json"))["process_durations_us"]
        assert_operator durations.max - durations.min, :<, 0.5e6, "the processes ran side by side: #{durations}"
      else
        assert File.file?(File.join(artifacts, "wrk.json"))
      end
    end
    assert_match(/\Awrk .*, httperf-/, store.meta.dig("workloads", "builtin:rack-hello", "load_generator"))
    report = Rubyrig::Analysis.new.analyze(meta: store.meta, trials: trials)
    assert_equal %w[client-close close], report.http.connection_modes.map(&:other).sort
    report.http.connection_modes.each do |c|
      assert_includes Rubyrig::Analysis::Verdict::ALL, c.verdict
      assert_equal 2, c.n
    end
    assert_equal({"client-close" => "httperf", "close" => "wrk", "keepalive" => "wrk"},
      report.http.cells.to_h { |d| [d.cell.params["connection"], d.load_generator] })
    measured_by = "closed loop (httperf, #{CONNECTIONS} connections, client-close); no latency sample synthesized"
    assert_match(/connection=client-close connections=#{CONNECTIONS}\s.*\s#{Regexp.escape(measured_by)}$/, out)
    assert_includes Rubyrig::Processes::TextFile.read(File.join(results, "report.md")), "| #{measured_by} |"
    assert_match(/connection=keepalive connections=#{CONNECTIONS}\s.*\sclosed loop \(wrk, #{CONNECTIONS} connections\); /o, out)
  end
end
