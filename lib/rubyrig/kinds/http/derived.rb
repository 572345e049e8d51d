# Figures only HTTP runs have, derived from the ok measured batches: per-cell latency, error and CPU
# details; each connection mode against keepalive; and the Rails overhead per request (Rails Simpler
# Bench's subtraction, 1/rails_throughput - 1/rack_throughput for the same runtime and server
# settings). Both contrasts are Comparisons from the one verdict pipeline (each its own family): the
# overhead's interval is the corrected interval of the Rails app's throughput ratio to its Rack twin,
# read as time per request. Every batch counts: one that completed no request leaves its pair not
# compared, with the reason. Parameters are the ones each cell recorded. Pure: no I/O.
module Rubyrig
  module Kinds
    module Http
      class Derived
        METRIC = "requests_per_s"
        REFERENCE_MODE = "keepalive"

        # Medians over one http cell's ok batches, how many of them had errors, the load generator that
        # measured them (wrk, httperf; as each batch recorded it) and the load model with the samples it
        # synthesized (LatencyProvenance).
        CellDetail = Struct.new(:cell, :n, :with_errors, :medians, :load_generator, :measured_by, keyword_init: true)

        # Rails' own time per request: the Comparison of the rails-hello style app (other) with the
        # rack-hello style app (reference) on requests/s, and what it means per request: the geometric
        # mean time per request of each, and their difference with its interval (nil when not compared).
        RailsOverhead = Struct.new(:comparison, :overhead_s, :ci, :rails_per_request_s, :rack_per_request_s, keyword_init: true) do
          def to_h = Analysis::Figures.plain(comparison).merge("overhead_s" => overhead_s, "overhead_ci" => ci,
            "rails_per_request_s" => rails_per_request_s, "rack_per_request_s" => rack_per_request_s)
        end

        Result = Struct.new(:cells, :connection_modes, :rails_overhead, keyword_init: true) do
          def empty? = cells.empty?

          # Every contrast it decided, for the report's warnings.
          def comparisons = connection_modes + rails_overhead.map(&:comparison)

          def to_h
            {
              "cells" => cells.map do |d|
                {"cell" => d.cell.key, "n" => d.n, "with_errors" => d.with_errors, "medians" => d.medians, "load_generator" => d.load_generator,
                 "measured_by" => d.measured_by}
              end,
              "connection_modes" => connection_modes.map { |c| Analysis::Figures.plain(c) },
              "rails_overhead" => rails_overhead.map(&:to_h)
            }
          end
        end

        DETAIL_METRICS = %w[requests_per_s latency_p50_s latency_p90_s latency_p95_s latency_p99_s latency_p999_s error_count boot_s
          server_cpu_fraction load_cpu_fraction end_pss_bytes].freeze

        def initialize(alpha: 0.05)
          @alpha = alpha
        end

        # report: the core Report (run, cells, trials, summaries).
        def compute(report)
          http = report.cells.select { |c| report.run.workload(c.workload).kind == Kind.kind }
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
          measured = report.trials.select { |t| t.cell_key == cell.key }
          generators = measured.filter_map { |t| t.facts.to_h["load_generator"] }.uniq
          CellDetail.new(cell: cell, n: trials.size, with_errors: trials.count { |t| t.status == Results::Trial::OK_WITH_ERRORS },
            medians: medians, load_generator: generators.empty? ? nil : generators.join(", "),
            measured_by: LatencyProvenance.describe(trials.empty? ? measured : trials)).freeze
        end

        # All connection modes of a run answer one question, so they form one family.
        def connection_modes(run, http, ok)
          groups = http.group_by { |c| [c.runtime, c.workload, c.effective.except("connection")] }
          family = groups.flat_map do |(runtime, workload, rest), cells|
            reference = cells.find { |c| c.effective["connection"] == REFERENCE_MODE }
            next [] unless reference
            (cells - [reference]).map do |cell|
              {runtime: runtime, baseline: runtime, workload: workload, params: rest, other: cell.effective["connection"],
               reference: REFERENCE_MODE, **samples(run, ok, reference, cell)}
            end
          end
          decide(run, family)
        end

        # Every Rails app against each Rack app run with the same runtime and settings: one family.
        def rails_overhead(run, http, ok)
          framework = ->(cell) { run.workload(cell.workload).framework }
          pairs = http.select { |c| framework.call(c) == "rails" }.flat_map do |rails|
            http.select { |c| framework.call(c) == "rack" && c.runtime == rails.runtime && c.effective == rails.effective }.map { |rack| [rails, rack] }
          end
          family = pairs.map do |rails, rack|
            {runtime: rails.runtime, baseline: rails.runtime, workload: rails.workload, params: rails.effective,
             other: rails.workload, reference: rack.workload, **samples(run, ok, rack, rails)}
          end
          family.zip(decide(run, family)).map { |c, comparison| overhead(comparison, c[:base], c[:other_values]) }
        end

        def decide(run, family) = Analysis::Contrasts.decide(family, metric: METRIC, alpha: @alpha, margin: run.decision.margin(METRIC), looks: run.decision.looks)

        # Time per request is 1 / requests/s, so the throughput ratio r (Rails to Rack) and its interval
        # [lo, hi] read as the overhead rack_time * (1/r - 1) within [rack_time * (1/hi - 1), rack_time * (1/lo - 1)].
        def overhead(comparison, rack_rates, rails_rates)
          return RailsOverhead.new(comparison: comparison).freeze unless comparison.compared? && comparison.ratio
          rack_s = 1.0 / geomean(rack_rates)
          to_overhead = ->(ratio) { rack_s * (1.0 / ratio - 1.0) }
          RailsOverhead.new(comparison: comparison, overhead_s: to_overhead.call(comparison.ratio),
            ci: comparison.ci&.reverse&.map(&to_overhead), rails_per_request_s: 1.0 / geomean(rails_rates),
            rack_per_request_s: rack_s).freeze
        end

        # The base and other sides of a contrast: every ok measured batch's requests/s (a batch without
        # one counts as 0.0, which the pipeline refuses with its reason), the host and the round of each.
        def samples(run, ok, base, other)
          {base: values(ok, base), other_values: values(ok, other), base_hosts: hosts(run, ok, base), other_hosts: hosts(run, ok, other),
           base_rounds: rounds(ok, base), other_rounds: rounds(ok, other)}
        end

        def geomean(values) = Math.exp(Stats.mean(values.map { |v| Math.log(v) }))

        def values(ok, cell) = ok.fetch(cell.key, []).map { |t| t.metrics[METRIC].is_a?(Numeric) ? t.metrics[METRIC].to_f : 0.0 }

        # The round of each batch (pairs by round).
        def rounds(ok, cell) = ok.fetch(cell.key, []).map(&:round)

        def hosts(run, ok, cell) = ok.fetch(cell.key, []).map { |t| t.host_id || run.host_id }
      end
    end
  end
end
