# The suite section of a ruby-bench checkout run (SuiteSummary): the headline (per runtime, the
# geometric mean of the benchmarks' ratios with its interval, over the suite and per category, and how
# many benchmarks ended in each verdict), each benchmark's ratio and interval grouped by category and
# sorted (the picture's numbers), peak and end RSS beside speed, and the benchmarks that did not run.
module Rubyrig
  class Analysis
    module Sections
      module Suite
        module_function

        def section(report)
          summaries = SuiteSummary.of(report)
          return nil if summaries.empty?
          plots = report.figures.suite
          tables = summaries.flat_map do |s|
            [headline(s), benchmarks(s, plots.find { |p| p.workload == s.workload }), memory(s), not_run(s)]
          end
          Section.of(name: "suite", title: "Suite", data: {"suites" => summaries.map { |s| data(s) }}, tables: tables)
        end

        def headline(summary)
          columns = [[:runtime, "runtime", "code"], [:category, "category", "text"], [:label, "metric", "text"],
            [:n, "benchmarks", "count"], [:ratio, "geometric mean [95% interval]", "ratio"], [:verdict, "verdict", "verdict"],
            [:counts, "benchmarks per verdict", "text"]]
          rows = summary.headlines.map do |h|
            {runtime: h.runtime, workload: summary.workload, category: h.category, metric: h.metric, label: Metrics.fetch(h.metric).label,
             n: h.comparison&.n || 0, ratio: h.comparison, verdict: h.comparison, counts: counts_text(h.counts)}
          end
          Section.table(name: "suite_headline", title: "Suite headline · #{summary.workload}", columns: columns, rows: rows,
            description: "ratio to #{summary.headlines.first&.comparison&.baseline || "the baseline"} over the benchmarks each runtime ran; " \
              "the interval comes from their batches (docs/statistics.md)")
        end

        # "12 faster · 3 slower · 2 not run"
        def counts_text(counts) = counts.sort_by { |word, _| order(word) }.map { |word, n| "#{n} #{word}" }.join(" · ")

        def order(word) = Verdict::ALL.index(word) || Verdict::ALL.size

        def benchmarks(summary, plot)
          metric = summary.metric
          columns = [[:category, "category", "text"], [:bench, "benchmark", "text"], [:runtime, "runtime", "code"],
            [:ratio, Metrics.fetch(metric).label, "ratio"], [:verdict, "verdict", "verdict"], [:not_run, "not run because", "text"]]
          rows = summary.rows.map do |r|
            c = r.comparisons[metric]
            {category: r.category, bench: r.bench, runtime: r.runtime, workload: summary.workload, metric: metric,
             params: {summary.param => r.bench}, ratio: c, verdict: c, not_run: r.not_run.to_s}
          end
          Section.table(name: "suite_benchmarks", title: "Each benchmark · #{summary.workload}", columns: columns, rows: rows,
            description: "ratio to the baseline with the interval decided on, grouped by category, largest first", figure: plot && [:suite, plot])
        end

        def memory(summary)
          columns = [[:category, "category", "text"], [:bench, "benchmark", "text"], [:runtime, "runtime", "code"],
            [:label, "metric", "text"], [:ratio, "ratio [interval]", "ratio"], [:verdict, "verdict", "verdict"]]
          rows = summary.rows.flat_map do |r|
            SuiteSummary::MEMORY.filter_map do |metric|
              c = r.comparisons[metric]
              next unless c&.ratio
              {category: r.category, bench: r.bench, runtime: r.runtime, workload: summary.workload, params: {summary.param => r.bench},
               metric: metric, label: Metrics.fetch(metric).label, ratio: c, verdict: c}
            end
          end
          Section.table(name: "suite_memory", title: "Memory beside speed · #{summary.workload}", columns: columns, rows: rows,
            description: "peak and end RSS of the whole process tree, ratio to the baseline (their geometric means are in the headline)")
        end

        def not_run(summary)
          return nil if summary.not_run.empty?
          columns = [[:category, "category", "text"], [:bench, "benchmark", "text"], [:runtimes, "runtimes", "text"], [:reason, "reason", "text"]]
          rows = summary.not_run.map do |n|
            {category: n.category, bench: n.bench, runtimes: n.runtimes.join(", "), workload: summary.workload,
             params: {summary.param => n.bench}, reason: n.reason.to_s}
          end
          Section.table(name: "suite_not_run", title: "Benchmarks that did not run · #{summary.workload}", columns: columns, rows: rows,
            description: "each with the first reason its batches failed; its other batches were not run")
        end

        def data(summary)
          {"workload" => summary.workload, "param" => summary.param, "metric" => summary.metric,
           "headlines" => summary.headlines.map { |h| {"runtime" => h.runtime, "category" => h.category, "metric" => h.metric, "counts" => h.counts}.merge(ratio(h.comparison)) },
           "benchmarks" => summary.rows.map do |r|
             {"bench" => r.bench, "category" => r.category, "runtime" => r.runtime, "not_run" => r.not_run,
              "ratios" => r.comparisons.transform_values { |c| ratio(c) }}
           end,
           "not_run" => summary.not_run.map { |n| {"bench" => n.bench, "category" => n.category, "runtimes" => n.runtimes, "reason" => n.reason} }}
        end

        def ratio(c) = c&.ratio ? {"ratio" => c.ratio, "ci" => c.ci, "verdict" => c.verdict, "n" => c.n} : {"ratio" => nil}
      end
    end
  end
end
