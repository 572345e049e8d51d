require "test_helper"

class CpuListTest < Minitest::Test
  def test_parse_and_format_round_trip
    assert_equal [0, 1, 2, 5], Rubyrig::Processes::CpuList.parse("0-2,5")
    assert_equal "0-2,5", Rubyrig::Processes::CpuList.format([5, 0, 1, 2])
  end

  def test_one_rule_for_every_place_that_takes_a_list
    %w[1 0-1 0,2-3 12].each { |text| assert Rubyrig::Processes::CpuList.valid?(text), text }
    ["0-1-2", "2-1", "a", "", "1,", "-1", "1 2"].each { |text| refute Rubyrig::Processes::CpuList.valid?(text), text }
  end
end
