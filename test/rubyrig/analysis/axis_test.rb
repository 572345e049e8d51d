require "test_helper"

class AxisTest < Minitest::Test
  Axis = Rubyrig::Analysis::Axis

  def test_a_narrow_rate_keeps_its_resolution_and_never_goes_below_zero
    axis = Axis.fit([2.18, 2.19, 2.2], unit: "1/s")
    refute axis.log
    assert_operator axis.min, :>=, 0
    assert_operator axis.min, :<=, 2.18
    assert_operator axis.max, :>=, 2.2
    assert_operator axis.min, :>, 2.0, "not squashed against zero"
    assert_equal axis.ticks.sort, axis.ticks
    assert(axis.ticks.all? { |t| t.between?(axis.min, axis.max) })
  end

  def test_values_near_zero_stop_at_zero
    axis = Axis.fit([0.0, 1e-5, 0.3], unit: "s")
    assert_in_delta 0.0, axis.min
    assert_in_delta 0.0, axis.ticks.first
  end

  def test_counts_start_at_zero_and_all_zero_still_has_a_range
    axis = Axis.fit([0, 0, 0], unit: "", zero: true)
    assert_in_delta 0.0, axis.min
    assert_operator axis.max, :>, 0
    assert_in_delta 0.0, Axis.fit([3, 5], unit: "", zero: true).min
  end

  def test_a_span_over_four_times_is_logarithmic
    assert Axis.fit([0.0005, 0.066], unit: "s").log
    refute Axis.fit([1.0, 3.9], unit: "s").log
    refute Axis.fit([0.0, 5.0], unit: "s").log, "zero cannot be on a log scale"
    wide = Axis.fit([0.0005, 0.066], unit: "s")
    assert_includes wide.ticks, 0.01
    assert_operator wide.min, :>, 0
  end

  def test_ratios_on_a_forced_log_scale_get_ticks_inside_a_narrow_range
    axis = Axis.fit([0.95, 1.02, 1.1], unit: "x", log: true)
    assert axis.log
    assert_equal [0.9, 1.0, 1.1], axis.ticks
    assert_in_delta 0.5, axis.fraction(Math.sqrt(axis.min * axis.max))
  end

  def test_bytes_step_in_binary_units
    mib = 1024.0 * 1024
    axis = Axis.fit([27.5 * mib, 29.8 * mib], unit: "B")
    axis.ticks.each { |t| assert_in_delta 0.0, (t / mib) % 1, 1e-9, "#{t / mib} MiB" }
  end

  def test_nothing_to_show
    assert_nil Axis.fit([nil], unit: "s")
  end
end
