# The headline of a ruby-bench suite run (a checkout whose benchmarks are the cells): per runtime, the
# geometric mean of the per-benchmark ratios to the baseline with its interval, over the suite and per
# category, for the primary metric and for peak and end RSS; the count of benchmarks per verdict; each
# benchmark's comparison; and the benchmarks that did not run, with the reason. Pure: reads the Report.
#
# The interval of a geometric mean (docs/statistics.md): the suite's log ratio is the mean of the
# benchmarks' log ratios, D = (1/k) sum d_i, each d_i estimated from its own batches as the comparisons
# estimate it (round-paired where the rounds allow, else Welch; within each host and combined). The
# benchmarks are the fixed set the suite names, not a sample of programs, so the uncertainty is that of
# the measurements: Var(D) = (1/k^2) sum Var(d_i), with Satterthwaite's df over every variance
# component, and the interval exp(D -/+ t(0.975, df) sqrt(Var(D))) at 95%, not corrected over the
# runtimes, categories or looks.
module Rubyrig
  class Analysis
    module SuiteSummary
      CONFIDENCE = 0.95
      MEMORY = %w[peak_rss_bytes end_rss_bytes].freeze
      # Categories in the order ruby-bench lists them; any other follows, by name.
      ORDER = %w[headline other micro ractor gc].freeze
      ALL = "all"
      NOT_RUN = "not run"

      # One benchmark on one runtime against the baseline: the comparison of each metric (nil where it
      # was not compared), or why it did not run.
      Row = Struct.new(:workload, :category, :bench, :runtime, :comparisons, :not_run, keyword_init: true)
      # A benchmark that did not run on some runtimes, with the first reason its batches failed.
      NotRun = Struct.new(:workload, :category, :bench, :runtimes, :reason, keyword_init: true)
      # The geometric mean of one runtime over a category ("all": the suite) for one metric, as a
      # Comparison, and how many benchmarks ended in each verdict (plus "not run").
      Headline = Struct.new(:workload, :runtime, :category, :metric, :comparison, :counts, keyword_init: true)
      # param: the parameter that names each cell's benchmark ("bench").
      Summary = Struct.new(:workload, :param, :metric, :rows, :headlines, :not_run, keyword_init: true)

      module_function

      # Every suite workload of the report (one whose run.json names the parameter of its benchmarks
      # and their categories).
      def of(report)
        report.run.workload_names.filter_map do |workload|
          suite = report.run["workloads"].dig(workload, "suite")
          next unless suite.is_a?(Hash) && suite["categories"].is_a?(Hash) && !suite["categories"].empty?
          summary(Scope.new(report: report, workload: workload, param: suite["param"]), suite["categories"])
        end
      end

      # What every step reads: the report, the suite's workload and the parameter naming a benchmark.
      Scope = Struct.new(:report, :workload, :param, keyword_init: true) do
        def params(bench) = {param => bench}

        def trials(runtime, bench)
          report.trials.select { |t| t.measured? && t.workload == workload && t.runtime == runtime && t.params[param] == bench }
        end
      end

      def summary(scope, categories)
        report = scope.report
        metric = report.primary_metric(scope.workload)
        metrics = [metric] + MEMORY
        runtimes = report.run.runtimes.keys - [report.baseline]
        rows = runtimes.flat_map do |runtime|
          categories.map { |bench, category| row(scope, runtime, bench, category, metrics) }
        end
        rows = rows.sort_by { |r| [category_rank(r.category), r.runtime, -(r.comparisons[metric]&.ratio || 0), r.bench] }
        headlines = runtimes.flat_map { |runtime| metrics.flat_map { |m| headlines(scope, runtime, rows, m) } }
        Summary.new(workload: scope.workload, param: scope.param, metric: metric, rows: rows.freeze, headlines: headlines.freeze,
          not_run: not_run(scope, categories)).freeze
      end

      def category_rank(category) = [ORDER.index(category) || ORDER.size, category]

      def row(scope, runtime, bench, category, metrics)
        report = scope.report
        comparisons = metrics.to_h { |m| [m, report.comparison(runtime, scope.workload, scope.params(bench), m)] }
        compared = comparisons.values.first&.ratio
        Row.new(workload: scope.workload, category: category, bench: bench, runtime: runtime, comparisons: comparisons.freeze,
          not_run: compared ? nil : reason(scope, [runtime, report.baseline], bench)).freeze
      end

      # The suite's line and each category's, for one runtime and metric.
      def headlines(scope, runtime, rows, metric)
        mine = rows.select { |r| r.runtime == runtime }
        groups = [[ALL, mine]] + mine.group_by(&:category).sort_by { |c, _| category_rank(c) }
        groups.map do |category, list|
          Headline.new(workload: scope.workload, runtime: runtime, category: category, metric: metric,
            comparison: geomean(scope, runtime, list, metric), counts: counts(list, metric)).freeze
        end
      end

      # Benchmarks per verdict; "not run" where a side had no successful batch, "not compared" where
      # both ran but too few batches to compare.
      def counts(rows, metric)
        rows.each_with_object(Hash.new(0)) do |r, counts|
          c = r.comparisons[metric]
          word = r.not_run ? NOT_RUN : Verdict::NOT_COMPARED
          counts[c&.ratio ? c.verdict : word] += 1
        end.freeze
      end

      # The geometric mean of the rows' ratios as a Comparison (nil without any ratio).
      def geomean(scope, runtime, rows, metric)
        designs = rows.filter_map { |r| r.comparisons[metric]&.ratio && design(scope, runtime, r.bench, metric) }
        return nil if designs.empty?
        k = designs.size
        d = designs.sum(&:log_ratio) / k
        parts = designs.flat_map { |g| g.components.map { |c| [c.share / k**2, c.n - 1] } }
        df = Stats.satterthwaite_df(parts)
        half = df ? Stats.t_quantile(1 - (1 - CONFIDENCE) / 2, df) * Math.sqrt(parts.sum(&:first)) : 0.0
        comparison(scope, runtime, metric, [d, half], k)
      end

      def comparison(scope, runtime, metric, (d, half), k)
        definition = Metrics.fetch(metric)
        margin = scope.report.run.decision.equivalence
        ci = [Math.exp(d - half), Math.exp(d + half)].freeze
        Comparison.new(runtime: runtime, baseline: scope.report.baseline, workload: scope.workload, params: {}.freeze, metric: metric,
          unit: definition.unit, higher_is_better: definition.higher_is_better, ratio: Math.exp(d), ci: ci, confidence: CONFIDENCE,
          verdict: Verdict.word(decision(ci, margin), definition), margin: margin, n: k, baseline_n: k,
          method_name: "geometric mean of #{k} benchmarks' ratios, #{Section.percent(CONFIDENCE)} interval from their batches").freeze
      end

      def decision(ci, margin)
        lo, hi = ci
        return :equivalent if margin.positive? && Inference.within?(lo, hi, margin)
        return :higher if lo > 1.0
        return :lower if hi < 1.0
        :inconclusive
      end

      # A benchmark's log ratio and its variance components, from the batches its comparison used.
      def design(scope, runtime, bench, metric)
        base, other = [scope.report.baseline, runtime].map do |rt|
          scope.report.summaries.find { |s| s.runtime == rt && s.workload == scope.workload && s.params == scope.params(bench) && s.metric == metric }
        end
        contrast = {base: base.values, other: other.values, base_hosts: base.hosts, other_hosts: other.hosts,
                    base_rounds: base.rounds, other_rounds: other.rounds}
        Inference.design(contrast, 1 - CONFIDENCE, false)
      end

      # Benchmarks with a runtime on which no batch succeeded, once each, with the runtimes and the reason.
      def not_run(scope, categories)
        categories.filter_map do |bench, category|
          runtimes = scope.report.run.runtimes.keys.reject { |rt| scope.trials(rt, bench).any?(&:ok?) }
          next if runtimes.empty?
          NotRun.new(workload: scope.workload, category: category, bench: bench, runtimes: runtimes.freeze,
            reason: reason(scope, runtimes, bench)).freeze
        end.sort_by { |n| [category_rank(n.category), n.bench] }.freeze
      end

      # The first reason a batch of the benchmark failed on these runtimes; "no batch has run yet" when
      # none ran; nil when each of them has a successful batch.
      def reason(scope, runtimes, bench)
        trials = runtimes.flat_map { |rt| scope.trials(rt, bench) }
        return "no batch has run yet" if trials.empty?
        return nil if runtimes.all? { |rt| scope.trials(rt, bench).any?(&:ok?) }
        trials.reject(&:ok?).min_by(&:started_at)&.reason
      end
    end
  end
end
