# The memory section: peak RSS against speed per workload (the pictures' numbers), and for runtimes
# that differ only in +yjit-mem, speed next to memory for each setting (Scaling#yjit_memory_rows).
module Rubyrig
  class Analysis
    module Sections
      module Memory
        MEMORY = [[:peak_rss_bytes, "peak RSS", "B"], [:yjit_code_region_bytes, "code region", "B"],
          [:yjit_alloc_bytes, "YJIT alloc", "B"]].freeze

        module_function

        def section(report)
          yjit = report.yjit_memory.group_by(&:metric).map { |metric, rows| yjit_memory(metric, rows) }
          Section.of(name: "memory", title: "Memory against speed", data: {"yjit_memory" => report.yjit_memory.map { |r| Figures.plain(r) }},
            tables: report.figures.memory_speed.map { |plot| memory_speed(plot) } + yjit)
        end

        def memory_speed(plot)
          columns = [[:group, "#", "count"], [:runtime, "runtime", "code"], [:params, "params", "params"], [:yjit_mem, "yjit-mem", "text"],
            [:n, "n", "count"], [:peak_rss_bytes, "peak RSS", "B"], [:speed, plot.label, plot.unit, {metric: plot.metric}]]
          rows = plot.points.map do |p|
            {group: p.group, runtime: p.runtime, params: p.params, yjit_mem: p.yjit_mem ? "#{p.yjit_mem} MiB" : "", n: p.n,
             workload: plot.workload, peak_rss_bytes: Section::Estimate.new(value: p.memory, ci: p.memory_ci),
             speed: Section::Estimate.new(value: p.speed, ci: p.speed_ci)}
          end
          Section.table(name: "memory_speed", title: "Memory against speed · #{plot.workload}", columns: columns, rows: rows,
            description: "medians [95% CI of the median, from 6 batches on]; # numbers the parameter sets", figure: [:memory_speed, plot])
        end

        def yjit_memory(metric, rows)
          definition = Metrics.fetch(metric)
          columns = [[:yjit_mem, "yjit-mem", "text"], [:workload, "workload", "text"], [:params, "params", "params"],
            [:speed, definition.label, definition.unit, {metric: metric}]] + MEMORY
          body = rows.map do |r|
            {yjit_mem: "#{r.yjit_mem} MiB", runtime: r.runtime, workload: r.workload, params: r.params, speed: r.speed,
             peak_rss_bytes: r.peak_rss_bytes, yjit_code_region_bytes: r.code_region_bytes, yjit_alloc_bytes: r.yjit_alloc_bytes}
          end
          Section.table(name: "yjit_memory", title: "YJIT memory against speed", columns: columns, rows: body)
        end
      end
    end
  end
end
