# Tests how the CPUs are split between the app server and the load generator.
require "test_helper"

class CpuSplitTest < Minitest::Test
  def test_default_on_two_cpus_puts_the_generator_on_cpu_0_and_the_server_on_cpu_1
    split = Rubyrig::Processes::CpuSplit.resolve(allowed: [0, 1])
    assert_equal "1", split.server
    assert_equal "0", split.load
    assert_empty split.warnings
  end

  def test_default_on_many_cpus_gives_the_server_all_but_one
    split = Rubyrig::Processes::CpuSplit.resolve(allowed: (0..7).to_a)
    assert_equal "1-7", split.server
    assert_equal "0", split.load
    assert_equal 7, split.server_count
  end

  def test_given_server_cpus_leave_the_generator_on_a_free_one
    split = Rubyrig::Processes::CpuSplit.resolve(server: "0", allowed: [0, 1])
    assert_equal "0", split.server
    assert_equal "1", split.load
  end

  def test_overlap_is_allowed_with_a_warning
    split = Rubyrig::Processes::CpuSplit.resolve(server: "0-1", load: "1", allowed: [0, 1])
    assert_equal "0-1", split.server
    assert_equal "1", split.load
    assert_match(/share CPU 1/, split.warnings.first)
  end

  def test_one_cpu_means_no_pinning_and_a_warning
    split = Rubyrig::Processes::CpuSplit.resolve(allowed: [0])
    assert_nil split.server
    assert_nil split.load
    assert_match(/only one CPU/, split.warnings.first)
  end
end
