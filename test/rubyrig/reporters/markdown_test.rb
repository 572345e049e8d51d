require "test_helper"
require "support_report"

class MarkdownReporterTest < Minitest::Test
  include SupportReport

  def test_markdown_is_ready_for_a_bug_report
    text = Rubyrig::Reporters::Markdown.new(synthetic_report).render
    assert_match(/\*\*Environment\*\*/, text)
    assert_match(/- `fast`: ruby 3\.1\.2 \(fast\)/, text)
    assert_match(/```sh\nrubyrig compare -r base -r fast -- builtin:nbody\n```/, text)
    assert_match(/\| params \| runtime \| n \| median \| CV \| ratio \[interval\] \| p \| verdict \| peak RSS \| RSS ratio \|/, text)
    assert_match(/\| n=1 \| `fast` \| 5 \| 12\.00\/s \| [\d.]+% \| 1\.200x \[[\d., ]+\] \| <0\.001 \| faster \|/, text)
  end
end
