# The Capacity section: per http workload and parameters whose batches searched their capacity, each
# runtime's highest sustained rate (median over batches with its interval), its ratio to the baseline's
# with the interval that is also its test, read as one sentence ("3.3.8+yjit sustains 1.310x [1.220,
# 1.400] the rate of 3.3.8 at p99 < 50 ms"); then the numbers of the latency-against-offered-rate picture.
module Rubyrig
  module Kinds
    module Http
      class CapacitySection
        METRIC = "capacity_per_s"
        COLUMNS = [[:runtime, "runtime", "code"], [:n, "n", "count"], [:capacity, "capacity [95% CI]", "1/s"],
          [:ratio, "ratio [interval]", "ratio"], [:p, "p", "p"], [:verdict, "verdict", "verdict"]].freeze

        def self.section(report) = new(report).section

        def initialize(report)
          @report = report
          @plots = report.figures.capacity
        end

        def section
          return nil if @plots.empty?
          Analysis::Section.of(name: "capacity", title: "Capacity", data: {"capacity" => @plots.map { |plot| data(plot) }},
            tables: @plots.flat_map { |plot| [capacity(plot), steps(plot)] })
        end

        # "3.3.8+yjit sustains 1.310x [1.220, 1.400] the rate of 3.3.8 at p99 < 50 ms: faster"
        def self.sentence(comparison, objective)
          return nil unless comparison&.ratio
          ratio = ->(r) { Analysis::RatioText.number(r) }
          interval = comparison.ci ? " [#{ratio.call(comparison.ci[0])}, #{ratio.call(comparison.ci[1])}]" : ""
          "#{comparison.runtime} sustains #{ratio.call(comparison.ratio)}x#{interval} the rate of #{comparison.baseline} at #{objective}: #{comparison.verdict}"
        end

        private

        def comparison(plot, runtime) = @report.comparison(runtime, plot.workload, plot.fixed, METRIC)

        def capacity(plot)
          comparisons = plot.series.filter_map { |s| comparison(plot, s.runtime) }
          rows = plot.series.map do |s|
            c = comparison(plot, s.runtime)
            {runtime: s.runtime, workload: plot.workload, params: plot.fixed, n: s.n, metric: METRIC, unit: "1/s",
             capacity: Analysis::Section::Estimate.new(value: s.capacity_per_s, ci: s.capacity_ci), ratio: c, p: c, verdict: c,
             detail: self.class.sentence(c, plot.objective)}
          end
          Analysis::Section.table(name: "capacity", title: "Capacity at #{plot.objective} · #{Analysis::Section.where(plot.workload, plot.fixed)}",
            description: "the highest offered rate sustained: the objective met and no backlog grown; " \
              "#{Analysis::Section.method_line(comparisons, @report.baseline) || "no comparison"}",
            columns: COLUMNS, rows: rows, notes: notes(comparisons, plot.objective))
        end

        def notes(comparisons, objective)
          comparisons.map { |c| [self.class.sentence(c, objective), c.reason].compact.join("; ") }.reject(&:empty?)
        end

        # Each runtime's steps, by offered rate: the objective's percentile in every batch there.
        def steps(plot)
          rows = plot.series.flat_map do |s|
            s.batches.flat_map { |b| b["points"].map { |rate, latency, ok| [s.runtime, b["batch_id"], rate, latency, ok] } }
          end
          Analysis::Section.table(name: "capacity_steps", title: "Latency against offered rate · #{Analysis::Section.where(plot.workload, plot.fixed)}",
            description: "every step of every batch's search: the #{Objective::LABELS.fetch(plot.percentile)} at each offered rate",
            columns: [[:runtime, "runtime", "code"], [:batch, "batch", "text"], [:rate, "offered", "1/s"], [:latency, Objective::LABELS.fetch(plot.percentile), "s"],
              [:sustained, "sustained", "text"]],
            rows: rows.map { |r, b, rate, latency, ok| {runtime: r, batch: b, rate: rate, latency: latency, sustained: ok ? "yes" : "no", workload: plot.workload, params: plot.fixed} },
            figure: [:capacity, plot])
        end

        def data(plot)
          {"workload" => plot.workload, "params" => plot.fixed, "objective" => plot.objective,
           "runtimes" => plot.series.map do |s|
             c = comparison(plot, s.runtime)
             {"runtime" => s.runtime, "n" => s.n, "capacity_per_s" => s.capacity_per_s, "capacity_ci" => s.capacity_ci,
              "ratio" => c&.ratio, "ci" => c&.ci, "verdict" => c&.verdict, "sentence" => self.class.sentence(c, plot.objective)}.compact
           end}
        end
      end
    end
  end
end
