# Tests the http kind's derived figures (Kinds::Http::Derived) on hand-made trials: connection modes against keepalive, and the Rails
# overhead per request (1/rails - 1/rack), both through the one verdict pipeline.
require "test_helper"

class HttpDerivedTest < Minitest::Test
  RACK = "builtin:rack-hello"
  RAILS = "builtin:rails-hello"
  BASE = {"processes" => 1, "threads" => 1, "connections" => 8}.freeze

  # The parameters as given, and as the runner records them with the http driver's defaults merged.
  def cells
    [[0, RACK, "keepalive"], [1, RACK, "close"], [2, RAILS, "keepalive"]].map do |index, workload, connection|
      params = BASE.merge("connection" => connection)
      effective = {"processes" => 1, "threads" => 1, "connection" => connection, "connections" => 8}
      {"index" => index, "runtime" => "system", "workload" => workload, "params" => params, "effective_params" => effective}
    end
  end

  def meta
    {
      "baseline" => "system",
      "plan" => {"seed" => 7, "cells" => cells, "order" => []},
      "workloads" => {
        RACK => {"kind" => "http", "framework" => "rack", "primary_metric" => "requests_per_s"},
        RAILS => {"kind" => "http", "framework" => "rails", "primary_metric" => "requests_per_s"}
      }
    }
  end

  def trials(rates_by_cell, status: "ok", diagnostic: nil)
    rates_by_cell.flat_map do |index, rates|
      cell = Rubyrig::Experiment::Plan.from_h(meta["plan"]).cells[index]
      rates.each_with_index.map do |rate, i|
        Rubyrig::Results::Trial.new(batch_id: "c#{index}-#{diagnostic || "b"}#{i}", cell_key: cell.key, runtime: cell.runtime,
          workload: cell.workload, params: cell.params, status: (i.zero? ? status : "ok"), diagnostic: diagnostic,
          metrics: {"requests_per_s" => rate, "latency_p99_s" => 0.01}, warnings: [])
      end
    end
  end

  def analyze(trials) = Rubyrig::Analysis.new.analyze(meta: meta, trials: trials)

  def derive(trials) = analyze(trials).http

  def test_profile_and_trace_batches_do_not_count_in_connection_modes
    measured = trials({0 => [10_000, 10_100, 9_900, 10_050, 9_950], 1 => [10_000, 10_100, 9_900, 10_050, 9_950]})
    profiled = trials({1 => [1_000]}, diagnostic: "profile")
    contrast = derive(measured + profiled).connection_modes.first
    assert_in_delta 1.0, contrast.ratio, 1e-9, "a slow profiled batch must not move the ratio"
    assert_equal 5, contrast.n
  end

  def test_a_zero_rate_is_not_compared_and_says_so
    report = analyze(trials({0 => [10_000, 10_100, 9_900, 10_050, 9_950], 1 => [0, 6_100, 5_900, 6_050, 5_950]}))
    contrast = report.http.connection_modes.first
    assert_nil contrast.ratio
    assert_nil contrast.p_adjusted
    assert_equal "not compared", contrast.verdict
    assert_match(/a batch reported 0\.0; a ratio needs positive values/, contrast.reason)
    assert(report.warnings.any? { |w| w.include?("close against keepalive not compared: a batch reported 0.0") }, report.warnings.inspect)
  end

  def test_close_against_keepalive_is_slower_with_an_interval_below_one
    derived = derive(trials({0 => [10_000, 10_100, 9_900, 10_050, 9_950], 1 => [6_000, 6_100, 5_900, 6_050, 5_950], 2 => [1_000] * 5}))
    contrast = derived.connection_modes.first
    assert_equal 1, derived.connection_modes.size
    assert_equal "close", contrast.other
    assert_equal "keepalive", contrast.reference
    assert_in_delta 0.6, contrast.ratio, 0.01
    assert_operator contrast.ci[1], :<, 1.0
    assert_operator contrast.p_adjusted, :<, 0.05
    assert_equal "slower", contrast.verdict
  end

  def test_rails_overhead_is_the_difference_of_time_per_request
    derived = derive(trials({0 => [10_000, 10_000, 12_500, 8_000], 1 => [5_000] * 4, 2 => [1_000, 1_250, 800, 1_000]}))
    overhead = derived.rails_overhead.first
    geomean = ->(rates) { Math.exp(rates.sum { |r| Math.log(r) } / rates.size) }
    rails_s = 1 / geomean.call([1000.0, 1250.0, 800.0, 1000.0])
    rack_s = 1 / geomean.call([10_000.0, 10_000.0, 12_500.0, 8_000.0])
    assert_in_delta rails_s - rack_s, overhead.overhead_s, 1e-12
    c = overhead.comparison
    assert_equal [RAILS, RACK], [c.other, c.reference]
    assert_equal "keepalive", c.params["connection"]
    assert_equal "slower", c.verdict, "the Rails app serves fewer requests/s than its Rack twin"
    assert_in_delta rack_s * (1 / c.ratio - 1), overhead.overhead_s, 1e-12
    assert_operator overhead.ci[0], :<=, overhead.overhead_s
    assert_operator overhead.ci[1], :>=, overhead.overhead_s
    assert_operator overhead.ci[0], :>, 0
  end

  def test_overhead_needs_the_same_server_settings
    derived = derive(trials({1 => [5_000] * 3, 2 => [1_000] * 3}))
    pairs = derived.rails_overhead.map(&:comparison)
    assert_equal ["keepalive"], pairs.map { |c| c.params["connection"] }, "close (rack) must not be paired with keepalive (rails)"
    assert_equal [3, 0], [pairs[0].n, pairs[0].baseline_n], "the keepalive Rack app ran no batch: counted, not dropped"
    assert_equal "not compared", pairs[0].verdict
  end

  def test_a_zero_rate_batch_leaves_the_overhead_not_compared_and_says_so
    report = analyze(trials({0 => [10_000, 10_100, 9_900, 10_050], 2 => [1_000, 0, 1_050, 980]}))
    overhead = report.http.rails_overhead.fetch(0)
    assert_equal [4, 4], [overhead.comparison.n, overhead.comparison.baseline_n], "every batch counts"
    assert_equal "not compared", overhead.comparison.verdict
    assert_nil overhead.overhead_s
    assert(report.warnings.any? { |w| w.include?("#{RAILS} against #{RACK} not compared: a batch reported 0.0") }, report.warnings.inspect)
  end

  def test_batches_with_errors_are_counted_per_cell
    derived = derive(trials({0 => [10_000, 10_100, 9_900]}, status: "ok_with_errors"))
    detail = derived.cells.find { |d| d.cell.index == 0 }
    assert_equal 3, detail.n
    assert_equal 1, detail.with_errors
    assert_in_delta 0.01, detail.medians["latency_p99_s"]
  end

  def test_reports_show_the_sections
    report = Rubyrig::Analysis.new.analyze(meta: meta,
      trials: trials({0 => [10_000, 10_100, 9_900, 10_050, 9_950], 1 => [6_000, 6_100, 5_900, 6_050, 5_950], 2 => [1_000] * 5}, status: "ok_with_errors"))
    text = Rubyrig::Reporters::Terminal.new(report).render
    assert_match(/close\s+0\.\d+x \[0\.\d+, 0\.\d+\]\s+\S+\s+slower\s+keepalive faster/, text)
    assert_match(/Rails overhead per request.*\n.*\n\s+system\s+processes=1 threads=1 connection=keepalive connections=8\s+9\d\d µs \[\d+ µs, \d+ µs\]\s+slower/, text)
    assert_match(/system · builtin:rack-hello · processes=1 threads=1 connections=8 connection=close\s+5\s+1\s/, text, "1 of 5 batches ok with errors")
    markdown = Rubyrig::Reporters::Markdown.new(report).render
    assert_match(/\*\*Rails overhead per request\*\*/, markdown)
    assert_match(/\| close \| 0\.\d+x/, markdown)
    json = JSON.parse(Rubyrig::Reporters::Json.new(report).render)
    assert_equal "slower", json.dig("http", "connection_modes", 0, "verdict")
    assert_in_delta 0.0009, json.dig("http", "rails_overhead", 0, "overhead_s"), 0.0001
  end
end
