require "test_helper"

class PrintableTest < Minitest::Test
  def test_control_characters_become_escapes
    assert_equal 'a\nb\r\tc\e]0;title\x07 \x7F \u0085', Rubyrig::Printable.line("a\nb\r\tc\e]0;title\a \x7F \u0085")
  end

  def test_ordinary_text_is_left_alone
    text = "a b'\"; $(x) <script> ../x · µs ✓"
    assert_same text, Rubyrig::Printable.line(text)
  end

  def test_colour_sequences_are_kept_only_when_asked
    painted = "\e[1mbold\e[0m\n"
    assert_equal "\e[1mbold\e[0m\\n", Rubyrig::Printable.line(painted, keep_sgr: true)
    assert_equal '\e[1mbold\e[0m\n', Rubyrig::Printable.line(painted)
  end

  def test_bytes_that_are_not_utf8_do_not_raise
    assert_equal "a\uFFFD\\n", Rubyrig::Printable.line("a\xFF\n".b)
  end
end
