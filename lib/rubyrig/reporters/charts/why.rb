# Where the cost went (Analysis::Figures::WhyBars): per runtime of a decided difference a stacked bar of
# its mean cost per unit of work by component, a tick at the cost itself (CPU of several threads can
# exceed it), the legend and the numbers beside each bar.
module Rubyrig
  module Reporters
    module Charts
      module Why
        COLORS = {"GC" => "#7570b3", "YJIT compile" => "#e7298a", "other CPU user" => "#1b7837", "CPU sys" => "#d95f02",
                  "off CPU" => "#d9d9d9", "YJIT code region" => "#e7298a", "YJIT allocations" => "#7570b3", "Ruby heap" => "#1b7837",
                  "rest of RSS" => "#d9d9d9"}.freeze
        WIDTH = 380
        PAD = 24

        module_function

        def render(plot)
          axis = plot.axis
          per = plot.unit_word ? " per #{plot.unit_word}" : ""
          head = Svg.svg(WIDTH, 28, [Svg.x_axis(axis, left: PAD, right: WIDTH - PAD, y: 4, width: WIDTH)], title: "cost#{per}", css: "lane-axis")
          names = plot.bars.values.first.map(&:first)
          rows = plot.bars.map do |runtime, segments|
            numbers = segments.map { |_, v| %(<td class="num">#{Format.value(v, plot.unit)}</td>) }.join
            %(<tr><td class="label"><code>#{Svg.esc(runtime)}</code></td><td class="lane">#{lane(plot, runtime, segments)}</td>#{numbers}) +
              %(<td class="num">#{Format.value(plot.costs[runtime], plot.unit)}</td></tr>)
          end
          <<~HTML
            #{legend(names)}<table class="lanes"><thead><tr><th>runtime</th><th class="lane">#{head}</th>#{names.map { |n| "<th>#{Svg.esc(n)}</th>" }.join}<th>#{(plot.unit == "B") ? "peak RSS" : "wall#{per}"}</th></tr></thead>
            <tbody>#{rows.join}</tbody></table>
          HTML
        end

        def legend(names)
          items = names.map do |name|
            %(<li><svg class="swatch" width="22" height="14" viewBox="0 0 22 14" aria-hidden="true"><rect x="1" y="2" width="20" height="10" fill="#{COLORS.fetch(name)}"/></svg> #{Svg.esc(name)}</li>)
          end
          %(<ul class="legend">#{items.join}</ul>)
        end

        def lane(plot, runtime, segments)
          x = ->(v) { Svg.place(plot.axis, v, PAD, WIDTH - PAD) }
          at = 0.0
          parts = segments.filter_map do |name, value|
            from = at
            at += value
            next if value <= 0
            %(<rect class="why-part" data-part="#{Svg.esc(name)}" x="#{Svg.r(x.call(from))}" y="5" width="#{Svg.r([x.call(at) - x.call(from), 0.8].max)}" ) +
              %(height="14" fill="#{COLORS.fetch(name)}"><title>#{Svg.esc("#{runtime}: #{name} #{Format.value(value, plot.unit)}")}</title></rect>)
          end
          cost = x.call(plot.costs[runtime])
          tick = %(<line class="why-cost" x1="#{Svg.r(cost)}" x2="#{Svg.r(cost)}" y1="1" y2="23" stroke="#222" stroke-width="2"/>)
          Svg.svg(WIDTH, 24, parts + [tick], title: "#{runtime}: #{Format.value(plot.costs[runtime], plot.unit)}", css: "lane-svg")
        end
      end
    end
  end
end
