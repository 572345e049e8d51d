require "test_helper"
require "support_report"

class JsonReporterTest < Minitest::Test
  include SupportReport

  def test_json_comparisons_carry_the_promised_fields
    doc = JSON.parse(Rubyrig::Reporters::Json.new(synthetic_report).render)
    assert_equal Rubyrig::RESULTS_FORMAT_VERSION, doc["format_version"]
    c = doc["comparisons"].find { |x| x["metric"] == "iterations_per_s" }
    %w[runtime workload params metric ratio ci p_value p_adjusted verdict].each { |k| assert c.key?(k), k }
    assert_equal "fast", c["runtime"]
    assert_equal({"n" => 1}, c["params"])
    assert_equal 2, c["ci"].size
    assert_equal "faster", c["verdict"]
    assert_equal 10, doc["batches"]["total"]
  end
end
