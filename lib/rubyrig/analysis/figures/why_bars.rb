# Where the cost went, per runtime, for each decided difference (Why::Explanation): a stacked bar of
# the mean cost per unit of work on each side, split into GC, YJIT compile time, the rest of CPU user,
# CPU sys and the rest of the wall time (off CPU: waiting, sleeping, I/O), or for peak RSS into the
# YJIT code region, YJIT's allocations, the Ruby heap and the rest; on one axis from zero per
# difference. With several threads CPU can exceed wall time: the bar is then longer than the cost,
# which is marked.
module Rubyrig
  class Analysis
    class Figures
      class WhyBars < Builder
        Plot = Struct.new(:workload, :params, :runtime, :reference, :metric, :unit_word, :unit, :axis, :costs, :bars, keyword_init: true)

        # The segments that are components themselves, before the rests.
        SPEED = [["GC", "gc_time_s"], ["YJIT compile", "yjit_compile_time_s"]].freeze
        MEMORY = [["YJIT code region", "yjit_code_region_bytes"], ["YJIT allocations", "yjit_alloc_bytes"], ["Ruby heap", "ruby_heap_bytes"]].freeze

        def figures
          @report.why.to_a.map do |e|
            sides = [e.reference, e.runtime]
            bars = sides.to_h { |runtime| [runtime, segments(e, runtime).freeze] }.freeze
            unit = e.unit
            ends = sides.flat_map { |r| [e.costs[r], bars[r].sum(&:last)] }
            Plot.new(workload: e.comparison.workload, params: e.comparison.params, runtime: e.runtime, reference: e.reference,
              metric: e.metric, unit_word: e.unit_word, unit: unit, axis: Axis.fit(ends, unit: unit, zero: true), costs: e.costs, bars: bars).freeze
          end
        end

        private

        # [[segment name, mean per unit], ...] of one side; parts it did not measure count as 0.
        def segments(e, runtime)
          mean = ->(name) { e.parts.find { |p| p.name == name }&.means&.fetch(runtime, 0.0) || 0.0 }
          cost = e.costs[runtime]
          if e.metric == Why::MEMORY_METRIC
            named = MEMORY.map { |label, name| [label, mean.call(name)] }
            return named + [["rest of RSS", [cost - named.sum(&:last), 0.0].max]]
          end
          named = SPEED.map { |label, name| [label, mean.call(name)] }
          user = mean.call("cpu_user_s")
          sys = mean.call("cpu_sys_s")
          named + [["other CPU user", [user - named.sum(&:last), 0.0].max], ["CPU sys", sys], ["off CPU", [cost - user - sys, 0.0].max]]
        end
      end
    end
  end
end
