# Tests how every format writes a ratio.
require "test_helper"

class RatioTextTest < Minitest::Test
  def text(r) = Rubyrig::Analysis::RatioText.number(r)

  def test_everyday_ratios_have_three_decimals
    assert_equal "0.481", text(0.4812)
    assert_equal "122.957", text(122.9571)
    assert_equal "0.000", text(0.0)
  end

  def test_large_ratios_are_whole_numbers_without_e_notation
    assert_equal "1630", text(1630.4)
    assert_equal "21700", text(21_700.2)
  end

  def test_small_ratios_keep_three_significant_digits_without_e_notation
    assert_equal "0.000119", text(0.000119)
    assert_equal "0.00345", text(0.003451)
    assert_equal "-0.005", text(-0.005)
    assert_equal 4.23e-7, Float(text(4.23e-7))
  end
end
