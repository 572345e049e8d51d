# What every picture of a report shows, computed once from the otherwise finished Report so that the
# HTML reporter only draws and the other formats print the same numbers: verdict forest plots per
# metric, per-cell distributions, sweep lines with bands, processes × threads grids, HTTP latency
# curves and errors per batch (the http kind's, in kinds/http/), jobs timelines, memory against speed, GVL time per thread, profile
# bars, where the cost went for each decided difference and a ruby-bench suite's benchmarks, each
# with its axes. Pure: reads the report and its trials' samples, no I/O.
module Rubyrig
  class Analysis
    class Figures
      KINDS = {
        verdicts: :VerdictPlots, distributions: :Distributions, sweeps: :SweepBands, grids: :Grids,
        latency: "Rubyrig::Kinds::Http::LatencyCurves", http_errors: "Rubyrig::Kinds::Http::ErrorBars", jobs: :JobsTimelines, memory_speed: :MemorySpeed,
        gvl: :GvlThreads, profiles: :ProfileBars, why: :WhyBars, suite: :SuiteForest,
        capacity: "Rubyrig::Kinds::Http::CapacityCurves"
      }.freeze

      # Every kind of picture, each a list (empty when the run has nothing to show in it).
      Set = Struct.new(*KINDS.keys, keyword_init: true) do
        def to_h = super.transform_values { |list| list.map { |figure| Figures.plain(figure) } }
      end

      # report: a Report with every other section computed.
      def self.of(report)
        measured = report.measured_by_cell
        Set.new(**KINDS.transform_values { |name| builder(name).new(report, measured).figures.freeze }).freeze
      end

      # A builder of analysis/figures/ by its name, or a kind's own by its full constant name (a String,
      # resolved when a report is drawn, so that the analysis names no kind).
      def self.builder(name) = name.is_a?(String) ? Object.const_get(name) : const_get(name)

      # Structs, hashes and lists of them as plain hashes with string keys (for JSON).
      def self.plain(value)
        case value
        when Struct then plain(value.to_h)
        when Hash then value.to_h { |k, v| [k.to_s, plain(v)] }
        when Array then value.map { |v| plain(v) }
        else value
        end
      end

      # What every builder gets: the report and its ok measured trials by cell key.
      class Builder
        def initialize(report, measured)
          @report = report
          @measured = measured
        end

        private

        def trials(cell) = @measured.fetch(cell.key, [])

        # Where a cell, or the first cell of a workload and parameters, comes in the plan: pictures
        # follow the plan's order whatever order the batches ran in.
        def position(cell_key: nil, workload: nil, params: nil)
          @report.cells.index { |c| cell_key ? c.key == cell_key : c.workload == workload && c.params == params } || @report.cells.size
        end

        def unit(metric) = Metrics.fetch(metric).unit
      end
    end
  end
end
