require "test_helper"
require "support_report"
require "csv"

class CsvReporterTest < Minitest::Test
  include SupportReport

  def test_csv_has_one_row_per_cell_and_metric
    rows = CSV.parse(Rubyrig::Reporters::Csv.new(synthetic_report).render, headers: true)
    assert_equal Rubyrig::Reporters::Csv::HEADER, rows.headers
    fast = rows.find { |r| r["runtime"] == "fast" && r["metric"] == "iterations_per_s" }
    assert_equal "faster", fast["verdict"]
    assert_in_delta 1.2, fast["ratio"].to_f, 0.005
    base = rows.find { |r| r["runtime"] == "base" && r["metric"] == "iterations_per_s" }
    assert_equal "baseline", base["verdict"]
    assert_equal 4, rows.count { |r| r["section"] == "cell" }
    memory = rows.select { |r| r["section"] == "memory_speed" }
    assert_equal [%w[base peak_rss_bytes], %w[base iterations_per_s], %w[fast peak_rss_bytes], %w[fast iterations_per_s]],
      memory.map { |r| [r["runtime"], r["metric"]] }, "the numbers of the memory-against-speed picture"
  end
end
