# The profiles section (the flame-graph comparison of seed 000): per profiled workload and parameters,
# every runtime's top frames by self time side by side, and the frames whose share of samples
# (inclusive) grew most from the baseline to each runtime (ProfileComparison), with their picture.
module Rubyrig
  class Analysis
    module Sections
      module Profiles
        module_function

        def section(report)
          tables = report.figures.profiles.flat_map do |plot|
            group = report.profiles.find { |g| g.workload == plot.workload && g.params == plot.params }
            [top(group, plot)] + group.growth.reject { |_, frames| frames.empty? }.map { |runtime, frames| growth(report, group, runtime, frames) }
          end
          Section.of(name: "profiles", title: "Profiles", data: {"profiles" => report.profiles.map { |g| Figures.plain(g) }}, tables: tables)
        end

        def top(group, plot)
          runtimes = group.profiles.keys
          columns = [[:rank, "#", "count"]] + runtimes.map { |r| [r, r, "share", {runtime: r, metric: "self_share"}] }
          rows = (0...group.top.values.map(&:size).max.to_i).map do |i|
            frames = runtimes.to_h { |r| [r, group.top[r][i]&.then { |f| Section::Share.new(share: f["self_share"], name: f["name"]) }] }
            {rank: i + 1, workload: group.workload, params: group.params}.merge(frames)
          end
          Section.table(name: "profile", title: "Profiles (#{plot.profiler}, top frames by self time) · #{Section.where(group.workload, group.params)}",
            columns: columns, rows: rows, figure: [:profiles, plot])
        end

        def growth(report, group, runtime, frames)
          columns = [[:frame, "frame", "code"], [:baseline_share, report.baseline, "fraction"], [:total_share, runtime, "fraction"],
            [:grew_by, "grew by", "pp"]]
          rows = frames.map do |f|
            {frame: f["name"], runtime: runtime, workload: group.workload, params: group.params, detail: f["name"],
             baseline_share: f["baseline_share"], total_share: f["share"], grew_by: f["delta"]}
          end
          Section.table(name: "profile_growth", title: "Grew most from #{report.baseline} to #{runtime} · #{Section.where(group.workload, group.params)}",
            description: "share of samples, inclusive", columns: columns, rows: rows)
        end
      end
    end
  end
end
