require "test_helper"
require "yaml"
require "support_report"
require "support/why_numbers"

# The Why section names what the shares decide, no more and no less (issue 34, item 2), on batches
# written out in test/fixtures/why: a factor whose share's interval holds 0 (or is unbounded) is not
# named, and a clear leader at few batches is said with what would decide it, never as "no measured
# factor accounts for it".
class WhyDecidedSharesTest < Minitest::Test
  include SupportReport
  include WhyNumbers

  FIXTURES = File.expand_path("../../../fixtures/why", __dir__)
  MIB = 2**20

  def fixture(name) = YAML.safe_load_file(File.join(FIXTURES, "#{name}.yml"))

  # rows: {runtime => [{metric => value per iteration (or MiB)}, ...]}, one per batch; a batch of 10
  # iterations after 0.1 s of boot, so that Why::Components reads the values per iteration back.
  def report(rows, yjit: [], &metrics)
    meta = synthetic_meta(runtimes: rows.keys, batches: rows.values.first.size)
    trials = synthetic_trials(meta, ->(_, _, _) { 1.0 }).map do |t|
      Rubyrig::Results::Trial.new(**t.to_h, metrics: metrics.call(rows.fetch(t.runtime)[t.batch - 1], t.batch), facts: {"yjit_enabled" => yjit.include?(t.runtime)})
    end
    Rubyrig::Analysis.new.analyze(meta: meta, trials: trials)
  end

  def speed(row, _)
    cost = row.fetch("cost")
    wall = cost * 10 + 0.1
    row.except("cost").transform_values { |v| v * wall / cost }.merge("iterations_per_s" => 1 / cost, "wall_s" => wall, "peak_rss_bytes" => 2e7)
  end

  def test_a_share_whose_interval_holds_zero_is_never_named
    r = report(fixture("heap_share_unbounded")) do |row, batch|
      {"iterations_per_s" => 100.0 * (1 + 0.01 * batch), "wall_s" => 1.0, "peak_rss_bytes" => row.fetch("peak_rss") * MIB, "ruby_heap_bytes" => row.fetch("ruby_heap") * MIB}
    end
    w = r.why.find { |e| e.metric == "peak_rss_bytes" }
    assert_equal "higher", w.comparison.verdict
    heap = w.parts.find { |p| p.name == "ruby_heap_bytes" }
    assert_in_delta 10.49, heap.share, 0.01, "the Ruby heap grew ten times as much as peak RSS"
    assert(heap.share_ci.nil? || heap.share_ci.first <= 0, "its share's interval is unbounded or holds 0: #{heap.share_ci.inspect}")
    assert_empty w.factors, w.line
    assert_match(/no factor decided; Ruby heap leads, \+12\.2 MiB \(2\.521x \[.*\]\), 1049% of the difference \(its interval unbounded\); about \d+ batches per runtime would decide it/, w.line)
  end

  def test_the_jit_fallback_whose_share_holds_zero_is_not_named
    rows = fixture("jit_share_unbounded").transform_values { |batches| batches.map { |b| {"cost" => b["cost"] / 1e3, "cpu_user_s" => b["cpu_user"] / 1e3} } }
    w = report(rows, yjit: ["yjit"]) { |row, batch| speed(row, batch) }.why.first
    assert_equal "faster", w.comparison.verdict
    user = w.parts.find { |p| p.name == "cpu_user_s" }
    assert_equal "lower", user.comparison.verdict
    assert_in_delta 1.0, user.share, 0.01
    assert(user.share_ci.nil? || user.share_ci.first <= 0, user.share_ci.inspect)
    assert_empty w.factors, w.line
    assert_match(/no factor decided; CPU user under YJIT leads, -10\.2 ms per iteration \(0\.593x \[.*\]\), 100% of the difference \(its interval unbounded\); about \d+ batches per runtime would decide it/, w.line)
  end

  def test_a_clear_leader_at_three_batches_is_not_called_no_measured_factor
    w = report(fixture("gc_three_batches")) { |row, batch| speed(row, batch) }.why.first
    assert_equal "slower", w.comparison.verdict
    assert_operator 1 / w.comparison.ratio, :>, 5
    gc = w.parts.find { |p| p.name == "gc_time_s" }
    assert_in_delta 0.81, gc.share, 0.01
    refute_includes w.line, "no measured factor accounts for it"
    if w.factors.empty?
      assert_equal ["gc", "gc_time_s"], [w.leading.first, w.leading.last.name]
      assert_match(/no factor decided; GC time leads, \+35\.4 ms per iteration \(.*\), 81% .*of the difference.*; about \d+ batches per runtime would decide it/, w.line)
    else
      assert_equal ["gc"], w.factors
      assert_operator gc.share_ci.first, :>, 0
    end
  end

  def test_the_batches_that_would_decide_it_are_in_the_json_report
    r = report(fixture("gc_three_batches")) { |row, batch| speed(row, batch) }
    doc = JSON.parse(Rubyrig::Reporters::Json.new(r).render)
    w = doc["why"].first
    assert_equal({"factor" => "gc", "name" => "gc_time_s", "batches" => r.why.first.leading.last.estimate.batches}, w["leading"])
    assert_operator w["leading"]["batches"], :>, 3
    assert_empty unmeasured_numbers(w["line"], doc, names_of(doc)), w["line"]
  end

  # Fieller's interval for a ratio of means: bounded only when the cost's difference is decided, and
  # without 0 only when the component's is; near the Wald interval when both are clear.
  def test_fieller_s_interval
    share = Rubyrig::Analysis::Why::Share
    base = [[1.0, 10.0], [1.1, 10.2], [0.9, 9.8], [1.05, 10.1]]
    clear = share.of(base, [[6.0, 15.0], [6.2, 15.3], [5.8, 14.8], [6.1, 15.1]], confidence: 0.95)
    assert_in_delta 1.0, clear.share, 0.02
    assert_operator clear.ci.first, :>, 0.8
    assert_operator clear.ci.last, :<, 1.2
    assert_nil clear.batches
    unclear = share.of(base, [[1.5, 10.5], [1.0, 12.0], [0.8, 9.0], [1.2, 10.4]], confidence: 0.95)
    assert_nil unclear.ci, "the cost's difference is not decided: unbounded"
    assert_operator unclear.batches, :>, 4
  end

  # A busy moment of the host slows both sides of a round alike: paired by round, it cancels.
  def test_the_share_is_paired_by_round_when_every_round_holds_both_sides
    share = Rubyrig::Analysis::Why::Share
    load = [1.0, 1.6, 0.8, 1.3]
    base = load.map { |f| [1.0 * f, 10.0 * f] }
    other = load.map.with_index { |f, i| [(3.0 + 0.05 * i) * f, (12.0 + 0.05 * i) * f] }
    paired = share.of(base, other.reverse, confidence: 0.95, rounds: [[1, 2, 3, 4], [4, 3, 2, 1]])
    assert_in_delta 1.0, paired.share, 0.02
    assert_operator paired.ci.first, :>, 0.9
    assert_nil share.of(base, other, confidence: 0.95).ci, "unpaired, the load's spread hides the difference"
    assert_nil share.of(base, other, confidence: 0.95, rounds: [[1, 1, 2, 3], [1, 2, 3, 4]]).ci, "a round with two batches of a side: not paired"
  end
end
