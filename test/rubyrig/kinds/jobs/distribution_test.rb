# Tests the streamed distributions and timeline of a drain: exact while they are small, within their
# stated error when they are large, and the same totals.
require "test_helper"

class DistributionTest < Minitest::Test
  Distribution = Rubyrig::Kinds::Jobs::Distribution
  Timeline = Rubyrig::Kinds::Jobs::Timeline

  def durations(n, seed)
    rng = Random.new(seed)
    Array.new(n) { Math.exp(rng.rand * 8 - 9) } # from 0.1 ms to 0.4 s, spread over many octaves
  end

  def test_small_distributions_are_exact
    values = durations(Distribution::EXACT_LIMIT, 1)
    distribution = values.each_with_object(Distribution.new) { |v, d| d << v }
    [0, 50, 90, 99, 100].each { |pct| assert_equal Rubyrig::Stats.percentile(values, pct), distribution.percentile(pct) }
    assert_nil Distribution.new.percentile(50)
  end

  def test_large_distributions_are_within_half_a_percent
    values = durations(60_000, 2) + [0.0] * 10
    distribution = values.each_with_object(Distribution.new) { |v, d| d << v }
    assert_equal 60_010, distribution.size
    sorted = values.sort
    [1, 50, 90, 99, 99.9].each do |pct|
      exact = sorted[(pct / 100.0 * (sorted.size - 1)).round]
      assert_in_delta 1.0, distribution.percentile(pct) / exact, 0.0055, "p#{pct}"
    end
    assert_equal 0.0, distribution.percentile(0), "values of 0 count as 0"
  end

  def test_small_timelines_are_exact
    times = [10.0, 10.5, 11.0, 14.0]
    timeline = times.each_with_object(Timeline.new) { |t, tl| tl << t }
    assert_equal [2, 1, 0, 1], timeline.counts(9.5, 14.0, 4)
  end

  def test_large_timelines_keep_every_job_and_slices_within_a_bin
    rng = Random.new(3)
    times = Array.new(100_000) { |i| 5.0 + i * 0.0004 + rng.rand * 0.01 } # 40 s of finishes, read a little out of order
    timeline = times.each_with_object(Timeline.new) { |t, tl| tl << t }
    since = 4.9
    last = times.max
    counts = timeline.counts(since, last, 100)
    width = (last - since) / 100
    exact = Array.new(100, 0)
    times.each { |t| exact[((t - since) / width).floor.clamp(0, 99)] += 1 }
    assert_equal 100_000, counts.sum
    per_bin = 100_000.0 / (Timeline::MAX_BINS / 2)
    counts.zip(exact).each_with_index do |(got, want), i|
      assert_operator (got - want).abs, :<=, 2 * per_bin, "slice #{i}: #{got} against #{want}"
    end
  end
end
