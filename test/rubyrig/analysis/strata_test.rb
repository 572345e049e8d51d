require "test_helper"

# The host as a block, case by case: one host is plain Welch, a host without enough batches is left
# out, no usable host refuses, and the combined estimate is the weighted mean of the hosts' log ratios.
class StrataTest < Minitest::Test
  Inference = Rubyrig::Analysis::Inference

  BASE = [1.0, 1.02, 0.98, 1.3, 1.33, 1.27].freeze
  OTHER = [1.1, 1.12, 1.08, 1.43, 1.46, 1.40].freeze
  HOSTS = %w[a a a b b b].freeze

  def test_one_host_is_the_plain_welch_comparison
    plain = Inference.family([{base: BASE.first(3), other: OTHER.first(3)}]).first
    one = Inference.family([{base: BASE.first(3), other: OTHER.first(3), base_hosts: %w[a a a], other_hosts: %w[a a a]}]).first
    assert_equal plain.to_h, one.to_h
    assert_nil one.hosts
  end

  def test_the_combined_ratio_weighs_the_hosts_by_batch_counts
    result = Inference.family([{base: BASE, other: OTHER, base_hosts: HOSTS, other_hosts: HOSTS}]).first
    logs = result.hosts.map { |h| Math.log(h.ratio) }
    assert_in_delta Math.exp(logs.sum / 2), result.ratio, 1e-12
    assert_equal [0.5, 0.5], result.hosts.map(&:weight)
    assert_equal :higher, result.decision
    assert_equal "Welch t on log values within each of 2 hosts, combined", result.method
    pooled = Inference.family([{base: BASE, other: OTHER}]).first
    assert_operator result.ci[1] / result.ci[0], :<, pooled.ci[1] / pooled.ci[0]
  end

  def test_a_host_with_one_batch_on_a_side_is_left_out_and_named
    hosts = %w[a a a b b b c]
    result = Inference.family([{base: BASE + [0.9], other: OTHER + [1.0], base_hosts: hosts, other_hosts: hosts}]).first
    left = result.hosts.find { |h| h.host == "c" }
    refute left.used?
    assert_match(/left out/, left.reason)
    assert_equal 2, result.hosts.count(&:used?)
    assert_equal 7, result.n
  end

  def test_no_host_with_two_batches_on_each_side_refuses
    result = Inference.family([{base: [1.0, 1.3], other: [1.1, 1.4], base_hosts: %w[a b], other_hosts: %w[a b]}]).first
    assert_equal :refused, result.decision
    assert_match(/compared within each host/, result.reason)
  end

  def test_inconclusive_advice_spreads_batches_over_the_hosts
    base = [1.0, 1.02, 0.98, 1.3, 1.33, 1.27]
    other = [1.03, 1.0, 1.07, 1.33, 1.31, 1.38]
    result = Inference.family([{base: base, other: other, base_hosts: HOSTS, other_hosts: HOSTS}]).first
    assert_equal :inconclusive, result.decision
    assert_match(/per runtime \(spread over the 2 hosts\)/, result.reason)
  end

  def test_heterogeneity_is_corrected_like_the_family
    contrast = {base: BASE, other: OTHER, base_hosts: HOSTS, other_hosts: HOSTS}
    one = Inference.family([contrast]).first.heterogeneity
    two = Inference.family([contrast, contrast]).first.heterogeneity
    assert_in_delta [one.p_value * 2, 1.0].min, two.p_adjusted, 1e-12
    assert_equal 1, one.df
  end

  def test_the_f_tail_matches_the_t_tail_for_one_numerator_degree_of_freedom
    assert_in_delta 2 * Rubyrig::Stats.t_upper_tail(2.0, 7.5), Rubyrig::Stats.f_upper_tail(4.0, 1, 7.5), 1e-12
    assert_in_delta 0.05, Rubyrig::Stats.f_upper_tail(3.4928, 2, 20), 1e-4
  end

  def test_batches_from_several_hosts_pair_within_each_host
    # Each shard numbers its rounds from 1: host and round together name a pair.
    rounds = [1, 2, 3, 1, 2, 3]
    contrast = {base: BASE, other: OTHER, base_hosts: HOSTS, other_hosts: HOSTS, base_rounds: rounds, other_rounds: rounds}
    result = Inference.family([contrast], pairing: :always).first
    assert result.paired
    assert_equal "t on round-paired log ratios within each of 2 hosts, combined", result.method
    per_host = %w[a b].map do |host|
      logs = HOSTS.each_index.select { |i| HOSTS[i] == host }.map { |i| Math.log(OTHER[i] / BASE[i]) }
      logs.sum / logs.size
    end
    assert_in_delta Math.exp(per_host.sum / 2), result.ratio, 1e-12
    assert_equal [3, 3], result.hosts.map(&:n)
  end
end
