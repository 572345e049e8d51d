require "test_helper"

class FileNameTest < Minitest::Test
  def test_only_safe_characters_stay
    assert_equal "a-b-touch-x-script-..-..-etc", Rubyrig::Processes::FileName.safe("a b'\"; $(touch x) <script> ../../etc")
    assert_equal "line1-line2", Rubyrig::Processes::FileName.safe("line1\nline2")
    assert_equal "-..", Rubyrig::Processes::FileName.safe(".."), "never a name that means a folder"
    assert_equal "-.", Rubyrig::Processes::FileName.safe(".")
    assert_equal "3.3.8_yjit-x", Rubyrig::Processes::FileName.safe("3.3.8_yjit-x")
  end

  def test_long_names_are_cut_with_a_digest_of_the_whole
    a = Rubyrig::Processes::FileName.safe("x" * 300 + "a")
    b = Rubyrig::Processes::FileName.safe("x" * 300 + "b")
    assert_equal 60, a.bytesize
    refute_equal a, b
    assert_match(/\Ax{51}-\h{8}\z/, a)
  end
end
