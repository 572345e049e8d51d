# Memory against speed: for each workload, every cell's median peak RSS and median primary metric, each
# with its 95% interval, and the +yjit-mem runtimes of the same parameters joined in order of their
# setting (the trade-off line of seed 004).
module Rubyrig
  class Analysis
    class Figures
      class MemorySpeed < Builder
        MEMORY = "peak_rss_bytes"

        Plot = Struct.new(:workload, :metric, :label, :unit, :higher_is_better, :memory_axis, :speed_axis, :points, :lines,
          keyword_init: true)
        # group: the number of the point's parameter combination within the plot, from 1.
        Point = Struct.new(:runtime, :params, :group, :cell_key, :yjit_mem, :n, :memory, :memory_ci, :speed, :speed_ci, keyword_init: true)

        def figures
          @report.cells.group_by(&:workload).filter_map do |workload, cells|
            metric = @report.primary_metric(workload)
            groups = cells.map(&:params).uniq
            points = cells.filter_map { |cell| point(cell, metric, groups.index(cell.params) + 1) }
            next if points.empty?
            definition = Metrics.fetch(metric)
            Plot.new(workload: workload, metric: metric, label: definition.label, unit: definition.unit,
              higher_is_better: definition.higher_is_better,
              memory_axis: Axis.fit(points.flat_map { |p| [p.memory, *p.memory_ci] }, unit: "B"),
              speed_axis: Axis.fit(points.flat_map { |p| [p.speed, *p.speed_ci] }, unit: definition.unit),
              points: points, lines: lines(points)).freeze
          end
        end

        private

        def point(cell, metric, group)
          memory = @report.summary(cell.key, MEMORY)
          speed = @report.summary(cell.key, metric)
          return nil unless memory && speed
          Point.new(runtime: cell.runtime, params: cell.params, group: group, cell_key: cell.key, yjit_mem: yjit_mem(cell.runtime),
            n: speed.n, memory: memory.median, memory_ci: memory.median_ci, speed: speed.median, speed_ci: speed.median_ci).freeze
        end

        def yjit_mem(runtime)
          setting = @report.run.runtime(runtime)["spec"].to_s[/\+yjit-mem=(\d+)/, 1]
          setting&.to_i
        end

        # Cell keys of the +yjit-mem points of each parameter combination, by setting, when there are two or more.
        def lines(points)
          points.select(&:yjit_mem).group_by(&:params).values.select { |list| list.size > 1 }
            .map { |list| list.sort_by(&:yjit_mem).map(&:cell_key) }
        end
      end
    end
  end
end
