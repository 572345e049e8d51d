# Tests the Endpoints section: a row for the whole request log and one per endpoint, medians over the
# ok batches, and each endpoint's p99 service time compared with the baseline runtime; no section
# without per-endpoint metrics.
require "test_helper"
require "support_report"

class HttpEndpointsSectionTest < Minitest::Test
  include SupportReport

  def report_with_endpoints
    meta = synthetic_meta
    trials = synthetic_trials(meta, {"base" => [10.0] * 5, "fast" => [12.0] * 5}).each_with_index.map do |t, i|
      slow = (t.runtime == "base") ? 2.0 : 1.0
      endpoint = {"endpoint.show.request_count" => 100 + i, "endpoint.show.share" => 0.6, "endpoint.show.error_count" => 0,
                  "endpoint.show.service_p50_s" => 0.001 * slow, "endpoint.show.service_p99_s" => (0.004 + 0.0001 * (i % 3)) * slow,
                  "service_p50_s" => 0.001, "service_p99_s" => 0.004 * slow, "queueing_mean_s" => 0.002, "logged_request_count" => 170}
      Rubyrig::Results::Trial.new(**t.to_h, metrics: t.metrics.merge(endpoint))
    end
    Rubyrig::Analysis.new.analyze(meta: meta, trials: trials)
  end

  def test_rows_for_the_log_and_each_endpoint_with_the_p99_comparison
    section = Rubyrig::Kinds::Http::EndpointsSection.section(report_with_endpoints)
    table = section.tables.fetch(0)
    assert_equal ["base (all)", "base show", "fast (all)", "fast show"], table.rows.map { |r| "#{r[:runtime]} #{r[:endpoint]}" }
    show = table.rows.find { |r| r[:runtime] == "fast" && r[:endpoint] == "show" }
    assert_in_delta 0.6, show[:share]
    assert_in_delta 0.001, show[:service_p50_s]
    assert_equal "lower", show[:verdict].verdict
    assert_in_delta 0.5, show[:ratio].ratio, 0.01
    all = table.rows.find { |r| r[:runtime] == "base" && r[:endpoint] == "(all)" }
    assert_in_delta 0.002, all[:queueing_mean_s]
    assert_in_delta 170, all[:request_count]
  end

  def test_no_section_without_endpoint_metrics
    assert_nil Rubyrig::Kinds::Http::EndpointsSection.section(synthetic_report)
  end
end
