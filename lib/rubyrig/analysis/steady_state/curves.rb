# The warmup curve of each runtime for the report's picture: every iteration's time (warmup kept) as
# a multiple of its batch's steady level (the median of its last third), in bins of iterations that
# double in width (1, 2, 3, 4, 5–6, 7–8, 9–12...), the median over the batches per bin with its 95%
# interval (from 6 batches on). Drawn like a sweep (figure kind :warmup): one line per runtime over the bins. Pure.
module Rubyrig
  class Analysis
    module SteadyState
      module Curves
        Point = Struct.new(:value, :median, :median_ci, :n, keyword_init: true)
        Plot = Struct.new(:workload, :param, :fixed, :metric, :label, :unit, :values, :axis, :series, keyword_init: true)
        LABEL = "iteration time / steady level"

        module_function

        # [first, last] iteration numbers (from 1) of each bin up to `count` iterations.
        def bins(count)
          starts = [1, 2, 3, 4, 5]
          width = 2
          until starts.last > count
            2.times { starts << starts.last + width }
            width *= 2
          end
          starts.each_cons(2).map { |a, b| [a, b - 1] }.select { |first, _| first <= count }
        end

        def label((first, last)) = (first == last) ? first.to_s : "#{first}–#{last}"

        # One batch's series (warmup then measured) as multiples of its steady level; nil when too short.
        def relative(series)
          times = series[:warmup] + series[:measured]
          return if times.size < MIN_SERIES
          level = Math.exp(Stats.median(times.last(times.size / 3).map { |t| Math.log(t) }))
          times.map { |t| t / level }
        end

        # cells: {runtime => [series of each batch]} of one workload and parameters; nil without a long series.
        def plot(workload, params, cells)
          relatives = cells.transform_values { |list| list.filter_map { |s| relative(s) } }.reject { |_, list| list.empty? }
          return if relatives.empty?
          ranges = bins(relatives.values.flatten(1).map(&:size).max)
          series = relatives.transform_values { |list| ranges.map { |range| point(range, list) } }
          shown = series.values.flatten.flat_map { |p| [p.median, *p.median_ci] }
          Plot.new(workload: workload, param: "iteration", fixed: params, metric: "iterations_s", label: LABEL, unit: "",
            values: ranges.map { |r| label(r) }, axis: Axis.fit(shown, unit: ""), series: series).freeze
        end

        def point(range, list)
          first, last = range
          values = list.filter_map { |rel| (rel.size >= first) ? Stats.median(rel[(first - 1)..(last - 1)]) : nil }
          Point.new(value: label(range), median: values.empty? ? nil : Stats.median(values),
            median_ci: (values.size >= 6) ? Stats.median_ci(values) : nil, n: values.size).freeze
        end
      end
    end
  end
end
