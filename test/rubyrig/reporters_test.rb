require "test_helper"
require "support_report"

class ReportersTest < Minitest::Test
  include SupportReport

  def test_export_writes_the_requested_files
    dir = tmpdir
    paths = Rubyrig::Reporters.export(synthetic_report, {json: File.join(dir, "r.json"), csv: File.join(dir, "r.csv")})
    assert_equal 2, paths.size
    assert(paths.all? { |p| File.size(p).positive? })
  end
end
