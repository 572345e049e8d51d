require "test_helper"
require "rubyrig/analysis/sequential"

class SequentialTest < Minitest::Test
  Sequential = Rubyrig::Analysis::Sequential
  Inference = Rubyrig::Analysis::Inference

  def test_looks_grow_by_half_and_end_at_the_maximum
    plan = Sequential.new(min_batches: 3, max_batches: 30)
    assert_equal [3, 5, 8, 12, 18, 27, 30], plan.looks
    assert_equal 7, plan.k
    assert_equal [2, 3, 5, 8, 12], Sequential.new(min_batches: 2, max_batches: 12).looks
    assert_equal [3, 6, 12, 24, 48, 50], Sequential.new(min_batches: 3, max_batches: 50, growth: 2).looks
    assert_equal [5], Sequential.new(min_batches: 5, max_batches: 5).looks
    assert plan.frozen?
    assert plan.looks.frozen?
  end

  def test_look_and_next_look
    plan = Sequential.new(min_batches: 3, max_batches: 20)
    assert plan.look?(8)
    refute plan.look?(9)
    assert_equal 3, plan.next_look(0)
    assert_equal 12, plan.next_look(8)
    assert_equal 20, plan.next_look(18)
    assert_nil plan.next_look(20)
  end

  def test_stops_at_a_look_where_everything_is_decided_or_at_the_maximum
    plan = Sequential.new(min_batches: 3, max_batches: 12)
    decided = Inference.family([{base: [100.0] * 3, other: [200.0] * 3}])
    open = Inference.family([{base: [100.0] * 3, other: [200.0] * 3}, {base: [100.0, 150.0, 70.0], other: [101.0, 60.0, 160.0]}])
    assert plan.stop?(5, decided)
    refute plan.stop?(4, decided), "4 is not a look"
    refute plan.stop?(5, open)
    assert plan.stop?(12, open)
  end

  def test_impossible_schedules_are_rejected
    assert_raises(ArgumentError) { Sequential.new(min_batches: 1, max_batches: 10) }
    assert_raises(ArgumentError) { Sequential.new(min_batches: 5, max_batches: 4) }
    assert_raises(ArgumentError) { Sequential.new(min_batches: 3, max_batches: 10, growth: 1) }
  end
end
