# Figures only HTTP runs have, derived from the ok measured batches: per-cell latency, error and CPU
# details; each connection mode against keepalive (throughput ratio, interval, corrected test,
# verdict, from the one verdict pipeline); and the Rails overhead per request, 1/rails_throughput -
# 1/rack_throughput for the same runtime and server settings (Rails Simpler Bench's subtraction), with
# a 95% Welch t interval over batches. Parameters are the ones each cell recorded. Pure: no I/O.
module Rubyrig
  class Analysis
    class HttpDerived
      METRIC = "requests_per_s"
      REFERENCE_MODE = "keepalive"

      # Medians over one http cell's ok batches, how many of them had errors, and the load generator
      # that measured them (wrk, httperf; as each batch recorded it).
      CellDetail = Struct.new(:cell, :n, :with_errors, :medians, :load_generator, keyword_init: true)

      # One connection mode against the reference mode, same runtime, app and other parameters.
      ModeContrast = Struct.new(:runtime, :workload, :params, :mode, :reference, :ratio, :ci, :confidence, :p_value,
        :p_adjusted, :verdict, :reason, :method_name, :margin, :n, :reference_n, keyword_init: true)

      # Rails' own time per request: rails-hello style app minus rack-hello style app.
      RailsOverhead = Struct.new(:runtime, :params, :rails_workload, :rack_workload, :overhead_s, :ci,
        :rails_per_request_s, :rack_per_request_s, :n, :rack_n, keyword_init: true)

      Result = Struct.new(:cells, :connection_modes, :rails_overhead, keyword_init: true) do
        def empty? = cells.empty?

        def to_h
          {
            "cells" => cells.map do |d|
              {"cell" => d.cell.key, "n" => d.n, "with_errors" => d.with_errors, "medians" => d.medians, "load_generator" => d.load_generator}
            end,
            "connection_modes" => connection_modes.map { |c| c.to_h.transform_keys(&:to_s) },
            "rails_overhead" => rails_overhead.map { |o| o.to_h.transform_keys(&:to_s) }
          }
        end
      end

      DETAIL_METRICS = %w[requests_per_s latency_p50_s latency_p90_s latency_p99_s latency_p999_s error_count boot_s
        server_cpu_fraction load_cpu_fraction end_pss_bytes].freeze

      def initialize(alpha: 0.05)
        @alpha = alpha
      end

      # report: the core Report (run, cells, trials, summaries).
      def compute(report)
        http = report.cells.select { |c| report.run.workload(c.workload).kind == "http" }
        ok = report.trials.select { |t| t.ok? && t.measured? }.group_by(&:cell_key)
        Result.new(
          cells: http.map { |cell| detail(report, cell, ok.fetch(cell.key, [])) },
          connection_modes: connection_modes(report.run, http, ok),
          rails_overhead: rails_overhead(report.run, http, ok)
        ).freeze
      end

      private

      def detail(report, cell, trials)
        medians = DETAIL_METRICS.to_h { |m| [m, report.summary(cell.key, m)&.median] }.compact
        generators = report.trials.select { |t| t.cell_key == cell.key }.filter_map { |t| t.facts.to_h["load_generator"] }.uniq
        CellDetail.new(cell: cell, n: trials.size, with_errors: trials.count { |t| t.status == Results::Trial::OK_WITH_ERRORS },
          medians: medians, load_generator: generators.empty? ? nil : generators.join(", ")).freeze
      end

      # All connection modes of a run answer one question, so they form one family.
      def connection_modes(run, http, ok)
        groups = http.group_by { |c| [c.runtime, c.workload, c.effective.except("connection")] }
        family = groups.flat_map do |(runtime, workload, rest), cells|
          reference = cells.find { |c| c.effective["connection"] == REFERENCE_MODE }
          next [] unless reference
          (cells - [reference]).map do |cell|
            {runtime: runtime, workload: workload, params: rest, mode: cell.effective["connection"],
             base: values(ok, reference), other: values(ok, cell), base_hosts: hosts(run, ok, reference), other_hosts: hosts(run, ok, cell)}
          end
        end
        decided = Contrasts.decide(family, definition: Metrics.fetch(METRIC), alpha: @alpha, margin: run.decision.margin(METRIC),
          looks: run.decision.looks)
        family.zip(decided).map do |c, d|
          ModeContrast.new(runtime: c[:runtime], workload: c[:workload], params: c[:params], mode: c[:mode],
            reference: REFERENCE_MODE, ratio: d.ratio, ci: d.ci, confidence: d.confidence, p_value: d.p_value,
            p_adjusted: d.p_adjusted, verdict: d.verdict, reason: d.reason, method_name: d.method_name, margin: d.margin,
            n: d.n, reference_n: d.baseline_n).freeze
        end
      end

      def rails_overhead(run, http, ok)
        framework = ->(cell) { run.workload(cell.workload).framework }
        rails = http.select { |c| framework.call(c) == "rails" }
        rack = http.select { |c| framework.call(c) == "rack" }
        rails.flat_map do |rails_cell|
          rack.select { |c| c.runtime == rails_cell.runtime && c.effective == rails_cell.effective }.filter_map do |rack_cell|
            rails_times = values(ok, rails_cell).select(&:positive?).map { |v| 1.0 / v }
            rack_times = values(ok, rack_cell).select(&:positive?).map { |v| 1.0 / v }
            next if rails_times.empty? || rack_times.empty?
            RailsOverhead.new(
              runtime: rails_cell.runtime, params: rails_cell.effective, rails_workload: rails_cell.workload,
              rack_workload: rack_cell.workload, overhead_s: Stats.mean(rails_times) - Stats.mean(rack_times),
              ci: difference_ci(rails_times, rack_times), rails_per_request_s: Stats.mean(rails_times),
              rack_per_request_s: Stats.mean(rack_times), n: rails_times.size, rack_n: rack_times.size
            ).freeze
          end
        end
      end

      # Welch t interval of mean(a) - mean(b): calibrated at small batch counts, where a bootstrap of
      # the means is too narrow.
      def difference_ci(a, b, confidence: 0.95)
        return nil if a.size < 2 || b.size < 2
        difference = Stats.mean(a) - Stats.mean(b)
        var_a = Stats.sd(a)**2
        var_b = Stats.sd(b)**2
        df = Stats.welch_df(var_a, a.size, var_b, b.size)
        return [difference, difference] if df.nil?
        half = Stats.t_quantile(1 - (1 - confidence) / 2, df) * Math.sqrt(var_a / a.size + var_b / b.size)
        [difference - half, difference + half]
      end

      def values(ok, cell)
        ok.fetch(cell.key, []).map { |t| t.metrics[METRIC] }.select { |v| v.is_a?(Numeric) }.map(&:to_f)
      end

      # The host of each value of values(ok, cell), in the same order.
      def hosts(run, ok, cell)
        ok.fetch(cell.key, []).select { |t| t.metrics[METRIC].is_a?(Numeric) }.map { |t| t.host_id || run.host_id }
      end
    end
  end
end
