# Profiles as bars: for each profiled workload and parameters, every runtime's top frames by self share,
# each marked when it is among the frames whose inclusive share grew most from the baseline, on one
# axis of shares from zero.
module Rubyrig
  class Analysis
    class Figures
      class ProfileBars < Builder
        Plot = Struct.new(:workload, :params, :profiler, :axis, :bars, :growth, keyword_init: true)

        def figures
          @report.profiles.sort_by { |g| position(workload: g.workload, params: g.params) }.map do |group|
            bars = group.top.to_h do |runtime, frames|
              grown = group.growth.fetch(runtime, []).to_h { |g| [g["name"], g["delta"]] }
              [runtime, frames.map { |f| f.slice("name", "self_share", "total_share").merge("grew_by" => grown[f["name"]]) }]
            end
            shares = bars.values.flatten.map { |f| f["self_share"] } + group.growth.values.flatten.flat_map { |g| [g["share"], g["baseline_share"]] }
            Plot.new(workload: group.workload, params: group.params, profiler: group.profiles.values.first["profiler"],
              axis: Axis.fit(shares, unit: "fraction", zero: true), bars: bars, growth: group.growth).freeze
          end
        end
      end
    end
  end
end
