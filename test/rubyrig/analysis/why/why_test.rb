require "test_helper"
require "set"
require "support_report"
require "support/why_numbers"

# The Why section from constructed trials whose cause is known: each batch's metrics are made from a
# cost per iteration and the seconds of each component, with a little noise, so that the decomposition
# must find what was put in.
class WhyAnalysisTest < Minitest::Test
  include SupportReport
  include WhyNumbers

  NOISE = [1.0, 1.02, 0.99, 1.01, 0.98, 1.015].freeze

  # parts: {runtime => {metric => seconds per iteration}}; wall_s is 10 iterations' cost plus 0.1 s.
  def report(parts, batches: 6, facts: {}, memory: {})
    meta = synthetic_meta(runtimes: parts.keys, batches: batches)
    trials = synthetic_trials(meta, ->(_, _, _) { 1.0 }).map do |t|
      noise = NOISE[t.batch - 1] * (1 + 0.001 * parts.keys.index(t.runtime))
      per = parts.fetch(t.runtime).transform_values { |v| v * noise }
      cost = per.fetch("cost")
      wall = cost * 10 + 0.1
      metrics = per.except("cost").transform_values { |v| v * wall / cost }
      metrics.merge!("iterations_per_s" => 1 / cost, "wall_s" => wall, "peak_rss_bytes" => memory.dig(t.runtime, "rss") || 20_000_000)
      metrics.merge!(memory.fetch(t.runtime, {}).except("rss").transform_values { |v| v * noise })
      Rubyrig::Results::Trial.new(**t.to_h, metrics: metrics, facts: facts.fetch(t.runtime, {}))
    end
    Rubyrig::Analysis.new.analyze(meta: meta, trials: trials)
  end

  def plain(user, gc: 0.001, sys: 0.002, cost: nil)
    {"cost" => cost || user + sys + 0.001, "cpu_user_s" => user, "cpu_sys_s" => sys, "gc_time_s" => gc,
     "voluntary_ctx_switches" => 0.5, "involuntary_ctx_switches" => 0.2}
  end

  def test_more_gc_is_named_gc_and_not_cpu_user_that_holds_it
    r = report({"base" => plain(0.010), "slow" => plain(0.030, gc: 0.021)})
    w = r.why.find { |e| e.metric == "iterations_per_s" }
    assert_equal "slower", w.comparison.verdict
    assert_equal ["gc"], w.factors
    gc = w.parts.find { |p| p.name == "gc_time_s" }
    assert_in_delta 1.0, gc.share, 0.05
    assert_operator gc.share_ci.first, :>, 0.5
    assert_match(/\Aslow is slower than base: iterations\/s 0\.39\dx \[.*\], \+20\.\d ms per iteration: GC time \+20\.\d ms per iteration/, w.line)
  end

  def test_a_cpu_user_difference_between_yjit_and_not_is_named_jit
    r = report({"base" => plain(0.030), "yjit" => plain(0.010)}, facts: {"base" => {"yjit_enabled" => false}, "yjit" => {"yjit_enabled" => true}})
    w = r.why.find { |e| e.metric == "iterations_per_s" }
    assert_equal ["jit"], w.factors
    assert_match(/CPU user under YJIT -20\.\d ms per iteration \(0\.33\dx/, w.line)
    compile = w.parts.find { |p| p.name == "yjit_compile_time_s" }
    refute compile.measured?, "on: not recorded; the probe saw YJIT on, so it is not taken as 0"
  end

  def test_plain_cpu_user_without_yjit_is_named_cpu_user
    w = report({"base" => plain(0.010), "slow" => plain(0.030)}).why.first
    assert_equal ["cpu_user"], w.factors
  end

  def test_gvl_wait_is_named_alone_and_its_absence_on_one_side_is_said
    r = report({"base" => plain(0.010).merge("gvl_wait_s" => 0.0001), "gvl" => plain(0.030, cost: 0.040).merge("gvl_wait_s" => 0.028)})
    w = r.why.first
    assert_equal ["gvl"], w.factors, w.line
    r = report({"base" => plain(0.010), "gvl" => plain(0.030).merge("gvl_wait_s" => 0.001)})
    assert_match(/GVL wait not measured on base \(needs CRuby 3\.2\+\)\z/, r.why.first.line)
  end

  def test_an_unexplained_difference_names_nothing_and_says_so
    w = report({"base" => plain(0.010), "slow" => plain(0.010, cost: 0.030)}).why.first
    assert_empty w.factors
    assert_includes w.line, "no measured factor accounts for it; try a profile: `--profile`"
  end

  def test_context_switches_are_counts_reported_beside_no_factor_and_never_named
    slow = plain(0.010, cost: 0.030).merge("voluntary_ctx_switches" => 30.0)
    w = report({"base" => plain(0.010), "slow" => slow}).why.first
    assert_empty w.factors
    assert_match(/no measured factor accounts for it \(voluntary context switches \d+\.\d{3}x \[.*\] per iteration moved with it, but they are counts, not time\); try a profile/, w.line)
  end

  # HTTP batches have no wall time: the server's CPU in the measured window, out of its whole life's,
  # over the requests completed in it; a script's: its wall time.
  def test_components_per_unit_of_work
    components = Rubyrig::Analysis::Why::Components
    gc = components::SPEED.find { |c| c.name == "gc_time_s" }
    http = Rubyrig::Results::Trial.new(metrics: {"requests_per_s" => 1000.0, "request_count" => 1000, "server_cpu_s" => 0.5,
                                                 "cpu_user_s" => 0.6, "cpu_sys_s" => 0.2, "gc_time_s" => 0.08}, facts: {})
    assert_in_delta 0.08 * 0.5 / 0.8 / 1000, components.per_unit(http, gc, "requests_per_s"), 1e-12
    script = Rubyrig::Results::Trial.new(metrics: {"iterations_per_s" => 20.0, "wall_s" => 2.0, "gc_time_s" => 0.4}, facts: {})
    assert_in_delta 0.4 / 2.0 / 20, components.per_unit(script, gc, "iterations_per_s"), 1e-12
    assert_nil components.per_unit(Rubyrig::Results::Trial.new(metrics: {"iterations_per_s" => 20.0, "gc_time_s" => 0.4}, facts: {}), gc, "iterations_per_s")
    region = components::MEMORY.first
    off = Rubyrig::Results::Trial.new(metrics: {"peak_rss_bytes" => 1e7}, facts: {"yjit_enabled" => false})
    assert_equal 0.0, components.per_unit(off, region, "peak_rss_bytes")
  end

  def test_a_over_a_has_no_explanation
    assert_empty report({"a" => plain(0.010), "b" => plain(0.010)}).why
  end

  def test_memory_is_split_into_yjit_parts
    memory = {"base" => {"rss" => 20_000_000}, "yjit" => {"rss" => 60_000_000, "yjit_code_region_bytes" => 30_000_000.0, "yjit_alloc_bytes" => 8_000_000.0}}
    facts = {"base" => {"yjit_enabled" => false}, "yjit" => {"yjit_enabled" => true}}
    r = report({"base" => plain(0.010), "yjit" => plain(0.010)}, memory: memory, facts: facts)
    w = r.why.find { |e| e.metric == "peak_rss_bytes" }
    assert_equal ["yjit_code_region"], w.factors
    assert_match(/peak RSS 3\.000x \[.*\], \+38\.1 MiB: YJIT code region \+28\.\d MiB \(appeared\), 7\d% \[7\d%, 7\d%\] of the difference/, w.line)
  end

  # A smaller malloc: the Ruby heap and YJIT unchanged, the rest of RSS (malloc, stacks, mappings) down.
  def test_memory_outside_the_heap_and_yjit_is_named_malloc
    memory = {"base" => {"rss" => 60_000_000, "ruby_heap_bytes" => 10_000_000.0}, "small" => {"rss" => 40_000_000, "ruby_heap_bytes" => 10_000_000.0}}
    facts = {"base" => {"yjit_enabled" => false}, "small" => {"yjit_enabled" => false}}
    w = report({"base" => plain(0.010), "small" => plain(0.010)}, memory: memory, facts: facts).why.find { |e| e.metric == "peak_rss_bytes" }
    assert_equal "lower", w.comparison.verdict
    assert_equal ["malloc"], w.factors
    assert_match(/rest of RSS \(malloc, stacks, mappings\) -\d+\.\d MiB \(0\.\d{3}x \[.*\]\), \d+% \[\d+%, \d+%\] of the difference/, w.line)
  end

  def test_the_gap_elsewhere_in_the_run_is_cited
    meta = synthetic_meta(runtimes: %w[base slow], params: [{"threads" => 1}, {"threads" => 4}])
    trials = synthetic_trials(meta, ->(r, p, n) { 10.0 * NOISE[n - 1] / ((r == "slow" && p["threads"] == 4) ? 3 : 1) })
    w = Rubyrig::Analysis.new.analyze(meta: meta, trials: trials).why.find { |e| e.comparison.params == {"threads" => 4} }
    assert_match(/; at threads=1 in this run the gap is 1\.000x \[0\.9\d\d, 1\.0\d\d\] \((equivalent|inconclusive)\)/, w.line)
  end

  def test_every_number_of_a_line_is_in_the_json_report
    r = report({"base" => plain(0.010).merge("gvl_wait_s" => 0.0002), "slow" => plain(0.030, gc: 0.021).merge("gvl_wait_s" => 0.0003)})
    doc = JSON.parse(Rubyrig::Reporters::Json.new(r).render)
    refute_empty doc["why"]
    doc["why"].each { |w| assert_empty unmeasured_numbers(w["line"], doc, names_of(doc)), w["line"] }
    assert_equal ["1.0x"], unmeasured_numbers("slow is 1.0x", doc, names_of(doc)), "a number the run did not measure is caught"
  end

  def test_the_contract_of_summary_json
    doc = JSON.parse(Rubyrig::Reporters::Json.new(report({"base" => plain(0.010), "slow" => plain(0.030, gc: 0.021)})).render)
    w = doc["why"].first
    assert_equal %w[cell workload params runtime reference metric ratio low high verdict unit difference factors leading line components], w.keys
    assert_equal "slow | builtin:nbody | n=1", w["cell"]
    assert_equal "s", w["unit"]
    assert_equal %w[name unit ratio low high verdict difference share share_low share_high], w["components"].first.keys
    assert_includes doc["summaries"].map { |s| s["cell_key"] }, w["cell"]
  end

  def test_every_format_shows_the_line_and_the_table
    r = report({"base" => plain(0.010), "slow" => plain(0.030, gc: 0.021)})
    line = r.why.first.line
    assert_includes Rubyrig::Reporters::Terminal.new(r).render, "why: #{line}"
    markdown = Rubyrig::Reporters::Markdown.new(r).render
    assert_includes markdown, "- **Why**, `slow`"
    assert_includes markdown, "**Why · slow against base · builtin:nbody · n=1**"
    rows = CSV.parse(Rubyrig::Reporters::Csv.new(r).render, headers: true).select { |row| row["section"] == "why" }
    gc = rows.find { |row| row["metric"] == "runtime_mean" && row["runtime"] == "slow" && row["detail"] == "component GC time; factor gc" }
    assert_equal "higher", gc["verdict"]
    assert_in_delta 0.0201, gc["median"].to_f, 0.001
    html = Rubyrig::Reporters::Html.new(r).render
    assert_includes html, %(data-figure="why")
    assert_includes html, %(data-part="GC")
  end
end
