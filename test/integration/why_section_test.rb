require "test_helper"
require "set"
require "support/why_numbers"

# The Why section on real processes, with causes known by construction (test/fixtures/why/cases.yml):
# one workload on 3.3.8, each runtime changing one thing against `base`: a CPU-bound thread beside the
# measured one (gvl), reads of /dev/zero (sys), a malloc limit of 1000 bytes (gc), YJIT (yjit) and
# nothing at all (aa). Each decided difference must name its cause and only it (or, where the
# share's interval does not decide, have it lead); the A/A pair none, even when explained anyway.
# Every effect is several times the noise of a loaded 2-core machine at 8 batches.
class WhySectionTest < Minitest::Test
  include SlowTest
  include WhyNumbers

  FIXTURE = File.expand_path("../fixtures/why/cases.yml", __dir__)

  # One run for every test of the class (about a minute), removed when the tests end.
  def self.run_once(test)
    @run ||= begin
      dir = Dir.mktmpdir("rubyrig-why")
      Minitest.after_run { FileUtils.rm_rf(dir) }
      status, out, err = test.run_cli("run", FIXTURE, "--results", File.join(dir, "run"))
      [status, out, err, Rubyrig::Processes::TextFile.json(File.join(dir, "run", "summary.json")), File.join(dir, "run")]
    end
  end

  def run_data = self.class.run_once(self)

  def doc = run_data[3]

  def why(runtime, metric = "iterations_per_s") = doc["why"].find { |w| w["runtime"] == runtime && w["metric"] == metric }

  # Named when its share's interval lies above 0; on a machine busy enough that the wall time's spread
  # leaves the interval unbounded at 8 batches, it leads, and nothing else is named.
  def test_each_cause_known_by_construction_is_named_alone_or_leads
    status, _, err, _ = run_data
    assert_equal 0, status, err
    {"gvl" => ["slower", "gvl", /GVL wait (leads, )?\+/], "sys" => ["slower", "cpu_sys", /CPU sys (leads, )?\+/],
     "gc" => ["slower", "gc", /GC time (leads, )?\+/], "yjit" => ["faster", "jit", /CPU user under YJIT (leads, )?-/]}.each do |runtime, (verdict, factor, words)|
      w = why(runtime)
      refute_nil w, "#{runtime}: a decided difference of iterations/s with a why entry"
      assert_equal verdict, w["verdict"], runtime
      assert_includes [[factor], []], w["factors"], "#{runtime}: #{w["line"]}"
      assert_equal factor, w.dig("leading", "factor"), "#{runtime}: #{w["line"]}" if w["factors"].empty?
      assert_match words, w["line"]
      named = w["components"].find { |c| c["name"] == {"gvl" => "gvl_wait_s", "sys" => "cpu_sys_s", "gc" => "gc_time_s", "yjit" => "cpu_user_s"}[runtime] }
      assert_equal((runtime == "yjit") ? "lower" : "higher", named["verdict"], runtime)
      assert_operator named["share"], :>=, Rubyrig::Analysis::Why::MIN_COST_SHARE, runtime
      assert_operator named["share_low"], :>, 0, runtime unless w["factors"].empty?
    end
  end

  def test_memory_is_attributed_to_yjit_or_malloc
    out = run_data[1]
    memory = why("yjit", "peak_rss_bytes")
    assert_equal "higher", memory["verdict"]
    assert_equal ["jit"], memory["factors"], memory["line"]
    assert_match(/YJIT allocations \+[\d.]+ MiB \(appeared\)/, memory["line"])
    region = memory["components"].find { |c| c["name"] == "yjit_code_region_bytes" }
    assert_equal "appeared", region["verdict"]
    assert_operator region["share_low"], :>, 0
    # A malloc limit of 1000 bytes keeps what the arrays malloc small: the rest of RSS, not the heap.
    malloc = why("gc", "peak_rss_bytes")
    assert_equal "lower", malloc["verdict"]
    assert_equal ["malloc"], malloc["factors"], malloc["line"]
    assert_includes out, "why: gvl is slower than base"
  end

  # The A/A pair's comparisons are rarely decided, so the report seldom explains them: each is explained
  # here whatever its verdict, and names no factor (the seeded simulation of
  # test/rubyrig/analysis/why/why_simulation_test.rb puts the rate of any factor at under 1%).
  def test_the_a_over_a_pair_names_no_factor_even_when_explained_anyway
    store = Rubyrig::Results::Store.open(run_data.last)
    report = Rubyrig::Analysis.new.analyze(meta: store.meta, trials: store.trials)
    measured = store.trials.select { |t| t.ok? && t.measured? }.group_by(&:cell_key)
    pairs = report.comparisons.select { |c| c.runtime == "aa" && c.other.nil? && %w[iterations_per_s peak_rss_bytes].include?(c.metric) }
    assert_equal 2, pairs.size
    pairs.each do |c|
      e = Rubyrig::Analysis::Why::Decomposition.new(report, measured).explain(c)
      assert_empty e.factors, e.line
    end
  end

  # CRuby 3.1's YJIT maps and writes its whole code region at boot: the RSS it adds is that region. It
  # appears (0 in every batch without YJIT) decided from 5 batches a side: Fisher's p is 0.008 there, and
  # 0.1 at 3.
  def test_an_rss_difference_is_attributed_to_yjit_s_code_region_on_ruby_3_1
    Dir.mktmpdir("rubyrig-why-region") do |dir|
      status, _, err = run_cli("compare", "-r", "system", "-r", "system+yjit", "--batches", "5", "--param", "steps=500",
        "--results", File.join(dir, "run"), "--", "builtin:nbody")
      assert_equal 0, status, err
      doc = Rubyrig::Processes::TextFile.json(File.join(dir, "run", "summary.json"))
      memory = doc["why"].find { |w| w["runtime"] == "system+yjit" && w["metric"] == "peak_rss_bytes" }
      assert_equal "higher", memory["verdict"]
      assert_equal ["yjit_code_region"], memory["factors"], memory["line"]
      assert_match(/YJIT code region \+[\d.]+ MiB \(appeared\), \d+% \[\d+%, \d+%\] of the difference/, memory["line"])
      assert_empty unmeasured_numbers(memory["line"], doc, names_of(doc)), memory["line"]
    end
  end

  def test_every_number_of_a_why_line_is_in_summary_json
    refute_empty doc["why"]
    doc["why"].each do |w|
      assert_empty unmeasured_numbers(w["line"], doc, names_of(doc)), w["line"]
    end
  end
end
