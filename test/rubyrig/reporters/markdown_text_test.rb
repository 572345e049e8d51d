require "test_helper"

class MarkdownTextTest < Minitest::Test
  include Rubyrig::Reporters::MarkdownText

  def test_text_escapes_what_markdown_would_read_as_markup
    assert_equal '\<script\>alert(1)\</script\> a \| b \`c\` \*d\* \[e\](f) \&amp; x\_ \_y wall_s',
      text("<script>alert(1)</script> a | b `c` *d* [e](f) &amp; x_ _y wall_s")
    assert_equal "line1\\\\nline2", text("line1\nline2"), "the escape's backslash is escaped too, so it shows"
  end

  def test_code_spans_hold_any_backticks_and_pipes
    assert_equal "`a b`", code("a b")
    assert_equal "``a`b``", code("a`b")
    assert_equal "``` ``x ```", code("``x")
    assert_equal "`  a  `", code(" a "), "a renderer strips one space from each side, so \" a \" shows as it is"
    assert_equal "`a \\| b`", code("a | b", table: true)
    assert_equal "`a | b`", code("a | b")
    assert_equal '`l1\nl2`', code("l1\nl2")
  end

  def test_fences_are_longer_than_any_fence_inside
    assert_equal ["```sh", "echo 1", "```"], fence("echo 1", "sh")
    assert_equal ["`````", "a", "```", "  ````x", "`````"], fence("a\n```\n  ````x")
    assert_equal ["```", "a\\e", "b", "```"], fence("a\e\nb")
  end
end
