# Which switches `rubyrig why` tries for which factors, and why, from constructed cells and runtimes.
require "test_helper"

class AblationSwitchesTest < Minitest::Test
  Ablation = Rubyrig::Ablation

  # Evidence as a stub: the figure of each factor given.
  Figures = Struct.new(:figures) do
    def for(factor) = figures[factor]
  end

  CRUBY_31 = {"engine" => "ruby", "version" => "3.1.2", "yjit" => true, "mn" => false, "jemalloc_linked" => false}.freeze
  CRUBY_33 = {"engine" => "ruby", "version" => "3.3.8", "yjit" => true, "mn" => true, "jemalloc_linked" => false}.freeze
  JRUBY = {"engine" => "jruby", "version" => "9.4.8.0"}.freeze

  def context(factors: [], params: {"threads" => 4, "calls" => 20_000}, kind: Rubyrig::Kinds::Script::Kind, specs: %w[system 3.3.8],
    interpreters: [CRUBY_31, CRUBY_33], cpus: nil, env: {}, figures: {})
    runtimes = specs.map { |s| Rubyrig::Experiment::Runtime.parse(s, env: env.fetch(s, {})) }
    difference = Ablation::Difference.new(cell: "c", workload: "builtin:w", params: params, runtime: runtimes[1].label,
      reference: runtimes[0].label, metric: "iterations_per_s", ratio: 0.12, ci: [0.1, 0.15], verdict: "slower", factors: factors, line: nil)
    Ablation::Context.new(difference: difference, effective_params: kind.effective_params(params), kind: kind,
      runtimes: runtimes.to_h { |r| [r.label, r] }, interpreters: runtimes.map(&:label).zip(interpreters).to_h, cpus: cpus,
      cpu_count: 2, evidence: Figures.new(figures))
  end

  def switches(**options) = Ablation::Switches.new(context(**options)).list

  def test_without_named_factors_every_switch_that_applies_is_tried_in_order
    list = switches
    assert_equal %w[concurrency mn cpus gc yjit jemalloc], list.map(&:name)
    assert_equal({"threads" => [1, 2]}, list[0].params)
    assert_equal ["+mn on 3.3.8", "pinned to CPU 1", "YJIT on", "+jemalloc on system and 3.3.8"], list.values_at(1, 2, 4, 5).map(&:label)
    assert_equal ["3.3.8"], list[1].runtimes.keys, "+mn only where the interpreter has M:N threads"
    assert_equal "3.3.8+mn", list[1].runtimes["3.3.8"]["spec"]
    assert_equal({"cpus" => "1"}, list[2].experiment)
    assert list.all? { |s| s.reason.end_with?("trying #{s.label}") }
    assert_match(/no measured factor points at it/, list[0].reason)
  end

  def test_gvl_wait_points_at_threads_mn_and_pinning_and_says_the_figure
    list = switches(factors: %w[gvl], figures: {"gvl" => "GVL wait 3.00 s/s on 3.3.8"})
    assert_equal %w[concurrency mn cpus], list.map(&:name)
    assert_equal "GVL wait 3.00 s/s on 3.3.8: trying threads=1, 2", list.first.reason
  end

  def test_a_named_factor_without_a_figure_is_still_said
    assert_equal "the Why section names GC: trying a larger GC heap", switches(factors: %w[gc]).first.reason
  end

  def test_named_factors_whose_switches_do_not_apply_fall_back_to_every_switch
    list = switches(factors: %w[jit], specs: %w[system jruby], interpreters: [CRUBY_31, JRUBY])
    assert_equal %w[concurrency cpus jemalloc], list.map(&:name), "JRuby has no YJIT to switch: every switch that applies"
    assert_match(/no measured factor points at it/, list.first.reason)
    assert_equal %w[mn cpus], switches(factors: %w[gvl], params: {"threads" => 1}).map(&:name), "+mn and pinning still apply to GVL wait"
  end

  def test_gc_replaces_every_gc_variable_of_both_runtimes
    list = switches(factors: %w[gc], specs: %w[big=system tiny=system], interpreters: [CRUBY_31, CRUBY_31],
      env: {"tiny=system" => {"RUBY_GC_MALLOC_LIMIT" => "1000", "RUBY_GC_HEAP_GROWTH_MAX_SLOTS" => "10", "OTHER" => "1"}})
    assert_equal %w[gc], list.map(&:name)
    tiny = list.first.runtimes.fetch("tiny")
    assert_equal Ablation::GC_ENV.merge("OTHER" => "1"), tiny["env"]
    assert_equal "tiny", tiny["label"]
    assert_equal Ablation::GC_ENV, list.first.runtimes.fetch("big")["env"]
    assert_equal "the GC settings RUBY_GC_MALLOC_LIMIT, RUBY_GC_HEAP_GROWTH_MAX_SLOTS", list.first.was
  end

  def test_a_one_thread_cell_has_no_concurrency_to_lower
    refute_includes switches(params: {"threads" => 1}).map(&:name), "concurrency"
  end

  def test_the_kind_says_which_parameters_set_concurrency_and_which_have_alternatives
    jobs = switches(kind: Rubyrig::Kinds::Jobs::Kind, params: {"concurrency" => 16})
    assert_equal({"concurrency" => [1, 4, 8]}, jobs.first.params)
    http = switches(kind: Rubyrig::Kinds::Http::Kind, params: {"threads" => 4, "processes" => 2})
    assert_equal [{"threads" => [1, 2]}, {"processes" => [1]}, {"connection" => ["close"]}], http.first(3).map(&:params)
  end

  def test_yjit_figures_switch_yjit_off_and_try_a_code_region
    list = switches(factors: %w[jit], specs: %w[system system+yjit], interpreters: [CRUBY_31, CRUBY_31])
    assert_equal ["YJIT off", "YJIT code region 32 MiB"], list.map(&:label)
    assert_equal "system", list.first.runtimes.fetch("system+yjit")["spec"]
    assert_equal "system+yjit-mem=32", list.last.runtimes.fetch("system+yjit")["spec"]
    refute list.last.runtimes.key?("system"), "only the runtime that runs YJIT gets a code region"
  end

  def test_jruby_gets_neither_gc_variables_mn_nor_jemalloc
    names = switches(specs: %w[system jruby], interpreters: [CRUBY_31, JRUBY]).map(&:name)
    assert_equal %w[concurrency cpus jemalloc], names
    assert_equal ["system"], switches(specs: %w[system jruby], interpreters: [CRUBY_31, JRUBY]).last.runtimes.keys
  end

  def test_a_pinned_run_is_tried_spread
    cpus = switches(cpus: "1").find { |s| s.name == "cpus" }
    assert_equal({"cpus" => nil}, cpus.experiment)
    assert_equal "pinned to CPUs 1", cpus.was
  end
end
