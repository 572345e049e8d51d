# Real Puma and wrk: builtin:rails-hello next to builtin:rack-hello on the system Ruby gives the Rails
# overhead per request (1/rails - 1/rack) with a Welch t interval, in the terminal and Markdown reports.
# Two batches leave the interval wide (one degree of freedom), so only its shape is checked.
require "test_helper"

class HttpRailsTest < Minitest::Test
  include SlowTest

  def test_rails_overhead_per_request
    dir = tmpdir
    exp = write(dir, "overhead.yml", <<~YAML)
      runtimes: [system]
      workloads:
        - builtin: rack-hello
          duration_s: 2
          warmup_s: 1
        - builtin: rails-hello
          duration_s: 2
          warmup_s: 1
          # Longer than a run: on a busy host a slow request is slow, never a timeout that fails the batch.
          request_timeout_s: 10
      batches: 2
      seed: 5
    YAML
    results = File.join(dir, "run")
    status, out, err = run_cli("run", exp, "--results", results)
    assert_equal 0, status, "#{out}\n#{err}"

    store = Rubyrig::Results::Store.open(results)
    rails = store.trials.select { |t| t.workload == "builtin:rails-hello" }
    assert_equal 2, rails.size
    assert rails.all?(&:ok?), rails.map { |t| [t.status, t.reason, t.warnings] }.inspect
    assert rails.all? { |t| t.facts["framework"] == "rails" && t.facts.dig("gems", "railties") }
    assert rails.all? { |t| t.facts["yjit_enabled"] == false }, "Rails must not turn YJIT on behind the runtime's back"
    report = Rubyrig::Analysis.new.analyze(meta: store.meta, trials: store.trials)
    overhead = report.http.rails_overhead.fetch(0)
    rack_rate = report.summary(report.cells.find { |c| c.workload == "builtin:rack-hello" }.key, "requests_per_s").mean
    rails_rate = report.summary(report.cells.find { |c| c.workload == "builtin:rails-hello" }.key, "requests_per_s").mean
    assert_operator rails_rate, :<, rack_rate
    assert_operator overhead.overhead_s, :>, 0
    assert_operator overhead.ci[0], :<=, overhead.overhead_s
    assert_operator overhead.ci[1], :>=, overhead.overhead_s
    assert_equal [2, 2], [overhead.comparison.n, overhead.comparison.baseline_n], "every batch counts"
    assert_match(/Rails overhead per request.*\n.*\n    system\s+processes=1 threads=1 connection=keepalive connections=8\s+\d+ µs \[-?\d+ µs, \d+ µs\]/, out)
    assert_match(/\*\*Rails overhead per request\*\*/, Rubyrig::Processes::TextFile.read(File.join(results, "report.md")))
  end
end
