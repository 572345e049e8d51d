require "test_helper"
require "support_report"

class TerminalReporterTest < Minitest::Test
  include SupportReport

  def test_plain_output_has_the_table_and_no_escape_codes
    text = Rubyrig::Reporters::Terminal.new(synthetic_report, color: false).render
    refute_match(/\e\[/, text)
    assert_match(/builtin:nbody · n=1/, text)
    assert_match(/iterations\/s \(higher is better\)/, text)
    assert_match(/base\s+n=5\s+10\.00\/s ± [\d.]+\/s\s+CV [\d.]+%\s+baseline/, text)
    assert_match(/iterations\/s \(higher is better\); ratio to base, 95% interval \(Welch t on log values\), equivalent within ±2%/, text)
    assert_match(/fast\s+n=5\s+12\.00\/s .*1\.200x \[1\.\d+, 1\.\d+\]\s+p=<0\.001\s+faster/, text)
    assert_match(/peak RSS/, text)
  end

  def test_colour_when_asked
    text = Rubyrig::Reporters::Terminal.new(synthetic_report, color: true).render
    assert_match(/\e\[32mfaster\e\[0m/, text)
  end

  def test_warnings_are_listed
    report = synthetic_report(status: {"c1-b2" => "failed"})
    text = Rubyrig::Reporters::Terminal.new(report, color: false).render
    assert_match(/Warnings:\n/, text)
    assert_match(/^  - fast \| builtin:nbody \| n=1: 1 failed batch \(exited with status 1: boom\)$/, text)
  end
end
