# Seeded A/A pairs through the whole Why (docs/why.md, "The A/A guarantee"): two runtimes that differ
# in nothing, every component of speed and memory drawn per batch with noise like a loaded host's
# (a round effect both sides share, a batch effect the cost and the CPU components share, each
# component's own noise), the comparisons decided by the verdicts' pipeline (Contrasts) and explained
# by Why. Counts how often any factor is named by the report (only a decided difference is explained)
# and when the pair's comparisons are examined anyway (forced: the naming rule alone). Shared by
# test/rubyrig/analysis/why/why_simulation_test.rb and bench/why-simulation. Pure logic, no I/O.
require "rubyrig"
require "support_report"

module WhySimulation
  extend SupportReport

  # batch_cv: the lognormal CV of a batch's effect on the cost and the CPU components; round_cv: of a
  # round's effect on both sides alike.
  Noise = Struct.new(:name, :batch_cv, :round_cv, keyword_init: true)
  NOISES = [
    Noise.new(name: "batch CV 5%", batch_cv: 0.05, round_cv: 0.0).freeze,
    Noise.new(name: "batch CV 20%, round CV 10%", batch_cv: 0.20, round_cv: 0.10).freeze
  ].freeze

  # draws: A/A pairs; decided: pairs with a decided difference (speed or memory); named: pairs whose
  # report names a factor; forced: pairs in which any factor is named when both comparisons are
  # explained; examined: pairs in which, so explained, some component was large enough to be judged
  # (named or leading: the naming rule's interval decided the case).
  Row = Struct.new(:batches, :noise, :seed, :draws, :decided, :named, :forced, :examined, keyword_init: true) do
    def decided_rate = decided.fdiv(draws)

    def named_rate = named.fdiv(draws)

    def forced_rate = forced.fdiv(draws)

    def examined_rate = examined.fdiv(draws)
  end

  # Each component per iteration: [mean, own CV, share of the batch effect it carries]. The cost is
  # 10 ms per iteration; GC time is inside CPU user; GVL wait is a single thread's (almost none).
  SPEED = {"cpu_user_s" => [0.0085, 0.02, 1.0], "gc_time_s" => [0.0015, 0.25, 1.0], "cpu_sys_s" => [0.0005, 0.10, 0.5],
           "gvl_wait_s" => [2e-6, 0.5, 0.0], "voluntary_ctx_switches" => [3.0, 0.1, 0.0], "involuntary_ctx_switches" => [1.0, 0.3, 1.0]}.freeze
  COST = 0.010
  # The cost's own noise beyond the batch effect: time off CPU.
  OFF_CPU_CV = 0.02
  HEAP_BYTES = [8 * 2**20, 0.01].freeze
  REST_BYTES = [20 * 2**20, 0.02].freeze
  RUNTIMES = %w[a b].freeze

  module_function

  def row(batches:, noise:, draws:, seed:)
    rng = Random.new(seed)
    meta = synthetic_meta(runtimes: RUNTIMES, batches: batches)
    counts = Array.new(draws) { pair(meta, noise, rng) }
    Row.new(batches: batches, noise: noise, seed: seed, draws: draws, decided: counts.count { |c| c[0] },
      named: counts.count { |c| c[1] }, forced: counts.count { |c| c[2] }, examined: counts.count { |c| c[3] })
  end

  # [decided?, named by the report?, named when forced?, judged when forced?] for one A/A pair.
  def pair(meta, noise, rng)
    run = Rubyrig::Results::RunMeta.wrap(meta)
    rounds = Array.new(meta["plan"]["order"].size) { lognormal(rng, noise.round_cv) }
    trials = synthetic_trials(meta, ->(_, _, _) { 1.0 }).map { |t| trial(t, noise, rounds[t.batch - 1], rng) }
    measured = trials.group_by(&:cell_key)
    core = Rubyrig::Analysis::Report.new(run: run, cells: run.cells, trials: trials, item_trials: [], primary: {}, comparisons: compare(run, measured))
    reported = Rubyrig::Analysis::Why.of(core, measured)
    forced = core.comparisons.map { |c| Rubyrig::Analysis::Why::Decomposition.new(core, measured).explain(c) }
    [!reported.empty?, reported.any? { |e| !e.factors.empty? }, forced.any? { |e| !e.factors.empty? }, forced.any? { |e| !e.factors.empty? || e.leading }]
  end

  # The pair's comparisons of iterations/s and peak RSS, by the verdicts' own pipeline.
  def compare(run, measured)
    base, other = run.cells.map { |cell| measured.fetch(cell.key) }
    %w[iterations_per_s peak_rss_bytes].flat_map do |metric|
      contrast = {runtime: "b", baseline: "a", workload: base.first.workload, params: base.first.params,
                  base: base.map { |t| t.metrics[metric] }, other_values: other.map { |t| t.metrics[metric] },
                  base_rounds: base.map(&:round), other_rounds: other.map(&:round)}
      Rubyrig::Analysis::Contrasts.decide([contrast], metric: metric, margin: run.decision.margin(metric))
    end
  end

  # One batch of 10 iterations after 0.1 s of boot: its totals are the amounts per iteration times the
  # iterations' share of the wall time, as Why::Components reads them back.
  def trial(t, noise, round, rng)
    effect = round * lognormal(rng, noise.batch_cv)
    cost = COST * effect * lognormal(rng, OFF_CPU_CV)
    wall = cost * 10 + 0.1
    per = SPEED.transform_values { |mean, cv, carried| mean * effect**carried * lognormal(rng, cv) }
    heap = HEAP_BYTES[0] * lognormal(rng, HEAP_BYTES[1])
    metrics = per.transform_values { |v| v * wall / cost }.merge("iterations_per_s" => 1 / cost, "wall_s" => wall,
      "ruby_heap_bytes" => heap, "peak_rss_bytes" => heap + REST_BYTES[0] * lognormal(rng, REST_BYTES[1]))
    Rubyrig::Results::Trial.new(**t.to_h, metrics: metrics, facts: {"yjit_enabled" => false})
  end

  def lognormal(rng, cv)
    sigma = Math.sqrt(Math.log(1 + cv * cv))
    Math.exp(sigma * Math.sqrt(-2 * Math.log(1.0 - rng.rand)) * Math.cos(2 * Math::PI * rng.rand))
  end
end
