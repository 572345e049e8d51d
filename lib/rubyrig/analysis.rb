# Turns a run's metadata and trials into summaries per cell, comparisons against the baseline (ratio,
# bootstrap CI, permutation p-value with Holm correction, verdict) and warnings. Pure: no I/O.
module Rubyrig
  class Analysis
    autoload :HttpDerived, "rubyrig/analysis/http_derived"
    autoload :Inference, "rubyrig/analysis/inference"

    CV_LIMIT = 0.05
    MIN_BATCHES = 5
    NO_DIFFERENCE = "no significant difference"

    # Everything a reporter needs, computed once.
    Report = Struct.new(:meta, :cells, :trials, :summaries, :comparisons, :warnings, keyword_init: true) do
      def baseline = meta["baseline"]

      def primary_metric(workload) = meta.dig("workloads", workload, "primary_metric") || "wall_s"

      def summary(cell_key, metric) = summaries.find { |s| s.cell_key == cell_key && s.metric == metric }

      def comparison(runtime, workload, params, metric)
        comparisons.find do |c|
          c.runtime == runtime && c.workload == workload && c.params == params && c.metric == metric
        end
      end

      # Cells grouped by workload and parameters, baseline first within each group.
      def groups
        cells.group_by { |c| [c.workload, c.params] }.map do |(workload, params), group|
          [workload, params, group.sort_by { |c| (c.runtime == baseline) ? 0 : 1 }]
        end
      end

      def failed_trials = trials.reject(&:ok?)

      def measured_trials = trials.select(&:measured?)

      def diagnostic_trials(kind) = trials.select { |t| t.diagnostic == kind && t.ok? }
    end

    def initialize(alpha: 0.05, resamples: 10_000)
      @alpha = alpha
      @resamples = resamples
    end

    # Trace and profile batches are kept in the report for their artifacts but never in statistics.
    def analyze(meta:, trials:)
      cells = Plan.from_h(meta.fetch("plan")).cells
      ok = trials.select { |t| t.ok? && t.measured? }.group_by(&:cell_key)
      summaries = cells.flat_map { |cell| summarize(cell, ok.fetch(cell.key, [])) }
      comparisons = compare(meta, cells, ok)
      Report.new(meta: meta, cells: cells, trials: trials, summaries: summaries, comparisons: comparisons,
        warnings: warnings(meta, cells, trials, ok, summaries)).freeze
    end

    private

    def summarize(cell, trials)
      metric_names(trials).map do |metric|
        values = values(trials, metric)
        Summary.new(cell_key: cell.key, runtime: cell.runtime, workload: cell.workload, params: cell.params,
          metric: metric, unit: Metrics.fetch(metric).unit, **Stats.summarize(values)).freeze
      end
    end

    def compare(meta, cells, ok)
      baseline = meta.fetch("baseline")
      rng = Random.new(meta.dig("plan", "seed") || 0)
      raw = cells.reject { |c| c.runtime == baseline }.flat_map do |cell|
        base_cell = cells.find { |c| c.runtime == baseline && c.comparable_key == cell.comparable_key }
        next [] unless base_cell
        base_trials = ok.fetch(base_cell.key, [])
        other_trials = ok.fetch(cell.key, [])
        (metric_names(base_trials) & metric_names(other_trials)).map do |metric|
          compare_metric(cell, baseline, metric, values(base_trials, metric), values(other_trials, metric), rng)
        end
      end
      adjust(raw)
    end

    def compare_metric(cell, baseline, metric, base, other, rng)
      definition = Metrics.fetch(metric)
      rate = definition.rate
      {
        runtime: cell.runtime, baseline: baseline, workload: cell.workload, params: cell.params,
        metric: metric, unit: definition.unit, higher_is_better: definition.higher_is_better,
        ratio: Stats.ratio(base, other, rate: rate),
        ci: Stats.bootstrap_ratio_ci(base, other, rate: rate, rng: rng, resamples: @resamples),
        p_value: Stats.permutation_p_value(base, other, rate: rate, rng: rng),
        n: other.size, baseline_n: base.size
      }
    end

    # Holm correction within each family: one metric of one workload and parameter combination, across
    # every runtime compared there with the baseline. Each such group answers its own question ("on
    # this workload, which runtimes differ?"); pooling all groups would make a large sweep unable to
    # show anything at 5 batches (an exact test's smallest p is 2/252 = 0.008).
    def adjust(raw)
      raw.group_by { |c| [c[:metric], c[:workload], c[:params]] }.flat_map do |(metric, _, _), group|
        adjusted = Stats.holm(group.map { |c| c[:p_value] })
        definition = Metrics.fetch(metric)
        group.zip(adjusted).map do |c, p_adjusted|
          direction = Stats.direction(ratio: c[:ratio], ci: c[:ci], p_adjusted: p_adjusted, alpha: @alpha)
          Comparison.new(**c, p_adjusted: p_adjusted, verdict: verdict(definition, direction)).freeze
        end
      end
    end

    def verdict(definition, direction)
      return NO_DIFFERENCE if direction == :same
      return direction.to_s unless definition.speed?
      better = (direction == :higher) == definition.higher_is_better
      better ? "faster" : "slower"
    end

    def warnings(meta, cells, trials, ok, summaries)
      list = few_batches_warnings(cells, ok)
      cells.each do |cell|
        failed = trials.select { |t| t.cell_key == cell.key && t.failed? }
        unless failed.empty?
          list << "#{cell.key}: #{failed.size} failed batch#{"es" if failed.size > 1} (#{failed.first.reason})"
        end
      end
      list.concat(variation_warnings(meta, cells, summaries))
      list.concat(host_warnings(meta))
      list.concat(gvl_warnings(cells, ok))
      list.concat((meta["runtimes"] || {}).values.flat_map { |r| r["warnings"] || [] })
      list.concat(trials.flat_map { |t| (t.warnings || []).map { |w| "#{t.cell_key}: #{w}" } })
      list.uniq
    end

    # A line per cell whose primary metric varies more than CV_LIMIT between batches, or one line for
    # all of them when there are many (a noisy host makes every cell vary).
    def variation_warnings(meta, cells, summaries)
      noisy = cells.filter_map do |cell|
        primary = meta.dig("workloads", cell.workload, "primary_metric")
        summary = summaries.find { |s| s.cell_key == cell.key && s.metric == primary }
        [cell, Metrics.fetch(primary).label, summary.cv] if summary&.cv && summary.cv > CV_LIMIT
      end
      advice = "close other programs, pin CPUs with --cpus or add batches"
      limit = (CV_LIMIT * 100).round
      if noisy.size > 3
        worst = noisy.max_by(&:last)
        return [format("%d of %d cells vary more than %d%% between batches (CV %.1f%% to %.1f%%, most in %s); %s",
          noisy.size, cells.size, limit, noisy.map(&:last).min * 100, worst.last * 100, worst.first.key, advice)]
      end
      noisy.map do |cell, label, cv|
        format("%s: %s varies a lot between batches (CV %.1f%% > %d%%); %s", cell.key, label, cv * 100, limit, advice)
      end
    end

    # One line when every short cell has the same count, else one line per cell.
    def few_batches_warnings(cells, ok)
      short = cells.map { |c| [c, ok.fetch(c.key, []).size] }.select { |_, n| n < MIN_BATCHES }
      advice = "statistics need #{MIN_BATCHES} or more (--batches)"
      counts = short.map(&:last).uniq
      if short.size > 1 && counts.size == 1
        n = counts.first
        subject = (short.size == cells.size) ? "every cell has" : "#{short.size} cells have"
        ["#{subject} only #{n} ok batch#{"es" unless n == 1}; #{advice}"]
      else
        short.map { |cell, n| "#{cell.key}: only #{n} ok batch#{"es" unless n == 1}; #{advice}" }
      end
    end

    # GVL instrumentation exists on CRuby 3.2+ only, and its hooks cost a little on every thread switch.
    def gvl_warnings(cells, ok)
      with, without = cells.map(&:runtime).uniq.partition do |runtime|
        cells.any? { |c| c.runtime == runtime && ok.fetch(c.key, []).any? { |t| t.metrics.key?("gvl_wait_s") } }
      end
      return [] if with.empty? || without.empty?
      ["GVL wait is measured on #{with.join(", ")} but n/a on #{without.join(", ")} (it needs CRuby 3.2+); " \
        "its hooks can cost a few percent on thread-heavy workloads, so rerun with --no-gvl for the cleanest speed comparison"]
    end

    # Only the load before the run counts: afterwards the benchmark's own processes are in the average.
    def host_warnings(meta)
      cores = meta.dig("host", "cores") || 1
      load = meta.dig("host", "load_average")
      return [] unless load&.first && load.first > cores * 0.5
      [format("the host was busy before the run (load %.2f on %d cores); timings may be noisy", load.first, cores)]
    end

    def metric_names(trials)
      trials.flat_map { |t| t.metrics.keys }.uniq.select { |m| trials.all? { |t| t.metrics[m].is_a?(Numeric) } }
    end

    def values(trials, metric) = trials.map { |t| t.metrics.fetch(metric).to_f }
  end
end
