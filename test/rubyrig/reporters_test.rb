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

  # The run is kept when its report cannot be written: the error says how to write it again.
  def test_an_export_that_fails_to_write_is_an_error_that_names_the_way_back
    path = File.join(tmpdir, "gone", "r.html")
    e = assert_raises(Rubyrig::Reporters::WriteError) { Rubyrig::Reporters.export(synthetic_report, {html: path}) }
    assert_equal "cannot write the html report to #{path}: No such file or directory; the run is kept, so " \
      "`rubyrig report DIR --export-html FILE` writes it again", e.message
  end
end
