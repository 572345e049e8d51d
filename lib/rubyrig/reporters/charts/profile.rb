# A profile comparison as bars: per runtime its top frames by self share, the frames whose inclusive
# share grew most from the baseline marked (▲, orange, hatched), then those frames with the baseline's
# share beside the runtime's.
module Rubyrig
  module Reporters
    module Charts
      module Profile
        WIDTH = 220
        PAD = 18
        GREW = "#d95f02"

        module_function

        def render(plot, baseline)
          axis = plot.axis
          columns = plot.bars.map { |runtime, frames| column(axis, runtime, frames) }
          growth = plot.growth.reject { |_, frames| frames.empty? }.map { |runtime, frames| growth(axis, baseline, runtime, frames) }
          title = [plot.workload, Format.params(plot.params)].reject(&:empty?).join(" · ")
          <<~HTML
            <figure class="chart" data-figure="profile">
            <figcaption>Top frames by self share of samples (#{Svg.esc(plot.profiler)}) · #{Svg.esc(title)}; <span class="grew">▲ marked</span>: among the frames whose inclusive share grew most from <code>#{Svg.esc(baseline)}</code>.</figcaption>
            <div class="side-by-side">#{columns.join}</div>#{growth.join}</figure>
          HTML
        end

        def head(axis) = Svg.svg(WIDTH, 28, [Svg.x_axis(axis, left: PAD, right: WIDTH - PAD, y: 4, width: WIDTH)], title: "share of samples", css: "lane-axis")

        def column(axis, runtime, frames)
          rows = frames.map do |f|
            grew = f["grew_by"]
            mark = grew ? %(<span class="grew" title="inclusive share grew by #{format("%.1f", grew * 100)} points">▲</span> ) : ""
            %(<tr class="#{"grew-row" if grew}"><td class="label frame">#{mark}<code>#{Svg.esc(f["name"])}</code></td>) +
              %(<td class="lane">#{bar(axis, f["self_share"], grew ? GREW : "#4a7fb0", "#{f["name"]}: #{Format.percent(f["self_share"])} self", hatched: grew)}</td><td class="num">#{Format.percent(f["self_share"])}</td></tr>)
          end
          %(<div><h4><code>#{Svg.esc(runtime)}</code></h4><table class="lanes"><thead><tr><th>frame</th><th class="lane">#{head(axis)}</th><th>self</th></tr></thead><tbody>#{rows.join}</tbody></table></div>)
        end

        def growth(axis, baseline, runtime, frames)
          rows = frames.map do |f|
            lanes = bar(axis, f["baseline_share"], "#9e9e9e", "#{f["name"]}: #{Format.percent(f["baseline_share"])} on #{baseline}") +
              bar(axis, f["share"], GREW, "#{f["name"]}: #{Format.percent(f["share"])} on #{runtime}", hatched: true)
            %(<tr><td class="label frame"><code>#{Svg.esc(f["name"])}</code></td><td class="lane">#{lanes}</td>) +
              %(<td class="num">#{Format.percent(f["baseline_share"])} → #{Format.percent(f["share"])} (#{format("%+.1f", f["delta"] * 100)} points)</td></tr>)
          end
          %(<h4>Grew most from <code>#{Svg.esc(baseline)}</code> (grey) to <code>#{Svg.esc(runtime)}</code> (orange), inclusive share of samples</h4>) +
            %(<table class="lanes"><thead><tr><th>frame</th><th class="lane">#{head(axis)}</th><th>share</th></tr></thead><tbody>#{rows.join}</tbody></table>)
        end

        def bar(axis, share, color, tip, hatched: false)
          x = Svg.place(axis, share.to_f, PAD, WIDTH - PAD)
          fill = hatched ? "url(#rubyrig-hatch)" : color
          rect = %(<rect class="frame-bar" x="#{PAD}" y="3" width="#{Svg.r([x - PAD, 0.8].max)}" height="12" fill="#{fill}" stroke="#{color}"><title>#{Svg.esc(tip)}</title></rect>)
          Svg.svg(WIDTH, 18, [rect], title: tip, css: "lane-svg")
        end
      end
    end
  end
end
