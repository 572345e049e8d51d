# Turns a run's metadata and trials into one finished Report: summaries per cell, comparisons against
# the baseline (one verdict pipeline, corrected per family), what the kinds derive (DERIVED), sweeps, YJIT memory,
# profiles, GVL traces, each runtime's gem sets, steady state, what accounts for each decided difference (Why),
# warnings, what each picture shows, and the report's sections as tables (Section, Sections). Computed once, before anything is rendered. Pure: no I/O.
module Rubyrig
  class Analysis
    GVL_METRICS = /\Agvl_/
    # What workload kinds derive from the core report for their own sections, pictures and warnings, by
    # the Report field that holds it: each `new(alpha:).compute(report)` returns a result whose
    # `comparisons` the warnings check. Named by constant, like the kinds' sections in Sections::DEFAULT
    # and pictures in Figures::KINDS, so that the analysis names no kind and reads their code only here.
    DERIVED = {http: "Rubyrig::Kinds::Http::Derived"}.freeze

    # sections: the Sections::Registry of the report's sections.
    def initialize(alpha: 0.05, sections: Sections::DEFAULT)
      @alpha = alpha
      @sections = sections
    end

    # meta: run.json as a Hash or a RunMeta. Trace and profile batches are kept in the report for their
    # artifacts but never in statistics. Items measured apart inside batches become cells of their own.
    # skipped: warnings for lines of trials.jsonl that were not trials. Every metric's unit, direction
    # and label are the ones the run recorded (RunMeta#metrics), never today's code's.
    def analyze(meta:, trials:, skipped: [])
      run = Results::RunMeta.wrap(meta)
      Metrics.using(run.metrics) { report(run, trials, skipped) }
    end

    private

    def report(run, trials, skipped)
      cells, item_trials = Items.expand(run.cells, trials)
      measured = (trials + item_trials).select { |t| t.ok? && t.measured? }.group_by(&:cell_key)
      @default_host = run.host_id
      apart = trials.select { |t| t.diagnostic == "gvl" && t.ok? }.group_by(&:cell_key)
      summaries = cells.flat_map { |cell| summarize(cell, measured.fetch(cell.key, [])) + gvl_apart(cell, apart.fetch(cell.key, [])) }
      core = Report.new(run: run, cells: cells, trials: trials, item_trials: item_trials, primary: primary_metrics(run, cells, measured),
        summaries: summaries, comparisons: compare(run, cells, measured))
      scaling = Scaling.new(core, alpha: @alpha)
      derived = DERIVED.transform_values { |name| Object.const_get(name).new(alpha: @alpha).compute(core) }
      sections = derived.merge(
        sweeps: scaling.tables, yjit_memory: scaling.yjit_memory_rows,
        profiles: ProfileComparison.new(core).groups, traces: traces(trials), gem_sets: GemSets.of(run),
        why: Why.of(core, measured), steady_state: SteadyState.of(cells, measured, alpha: @alpha)
      )
      warnings = Warnings.new(core, derived: derived.values, skipped: skipped).list + GemSets.warnings(sections[:gem_sets]) +
        SteadyState.warnings(sections[:steady_state])
      full = Report.new(**core.to_h, **sections, warnings: warnings)
      drawn = Report.new(**full.to_h, figures: Figures.of(full))
      Report.new(**drawn.to_h, sections: @sections.build(drawn)).freeze
    end

    # A script that calls Rubyrig.bench reports iterations/s (so do a benchmark-ips file's items); one
    # that does not, its run time.
    def primary_metrics(run, cells, measured)
      cells.map(&:workload).uniq.to_h do |workload|
        candidates = run.workload(workload).primary_metrics
        trials = cells.select { |c| c.workload == workload }.flat_map { |c| measured.fetch(c.key, []) }
        [workload, candidates.find { |m| trials.any? { |t| t.metrics[m].is_a?(Numeric) } } || candidates.first]
      end
    end

    # GVL metrics measured in a diagnostic batch apart (when not every runtime can carry them): summarized
    # like the others, never compared (the measured batches have none).
    def gvl_apart(cell, trials) = summarize(cell, trials, only: GVL_METRICS)

    def summarize(cell, trials, only: nil)
      metric_names(trials).select { |m| only.nil? || only.match?(m) }.map do |metric|
        values = values(trials, metric)
        Summary.new(cell_key: cell.key, runtime: cell.runtime, workload: cell.workload, params: cell.params,
          metric: metric, unit: Metrics.fetch(metric).unit, values: values.freeze, hosts: hosts(trials).freeze, rounds: trials.map(&:round).freeze,
          **Stats.summarize(values)).freeze
      end
    end

    # Each family is one metric of one workload and parameter combination, across every runtime
    # compared there with the baseline: it answers its own question ("on this workload, which runtimes
    # differ?"), so it is corrected on its own.
    def compare(run, cells, measured)
      baseline = run.baseline
      pairs = cells.reject { |c| c.runtime == baseline }.flat_map do |cell|
        base_cell = cells.find { |c| c.runtime == baseline && c.comparable_key == cell.comparable_key }
        next [] unless base_cell
        base_trials = measured.fetch(base_cell.key, [])
        other_trials = measured.fetch(cell.key, [])
        (metric_names(base_trials) & metric_names(other_trials)).map do |metric|
          {runtime: cell.runtime, baseline: baseline, workload: cell.workload, params: cell.params, metric: metric,
           base: values(base_trials, metric), other_values: values(other_trials, metric),
           base_hosts: hosts(base_trials), other_hosts: hosts(other_trials), base_rounds: base_trials.map(&:round),
           other_rounds: other_trials.map(&:round)}
        end
      end
      pairs.group_by { |p| p.values_at(:metric, :workload, :params) }.flat_map do |(metric, _, _), family|
        Contrasts.decide(family.map { |p| p.except(:metric) }, metric: metric, alpha: @alpha,
          margin: run.decision.margin(metric), looks: run.decision.looks)
      end
    end

    def traces(trials)
      trials.select { |t| t.diagnostic == "trace" && t.ok? }.filter_map do |t|
        files = t.artifacts.to_a.select { |a| a.start_with?("trace/") }.map { |f| "artifacts/#{t.batch_id}/#{f}" }
        Trace.new(cell_key: t.cell_key, batch_id: t.batch_id, files: files).freeze unless files.empty?
      end
    end

    def metric_names(trials)
      trials.flat_map { |t| t.metrics.keys }.uniq.select { |m| trials.all? { |t| t.metrics[m].is_a?(Numeric) } }
    end

    def values(trials, metric) = trials.map { |t| t.metrics.fetch(metric).to_f }

    # The host of each trial: a block of the statistics when a run's batches come from several.
    def hosts(trials) = trials.map { |t| t.host_id || @default_host }
  end
end
