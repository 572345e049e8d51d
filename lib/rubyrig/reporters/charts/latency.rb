# HTTP latency percentile curves: per runtime (colour and marker) and connection mode (dash) the median
# latency at p50, p90, p99 and p99.9 with each median's 95% interval as a whisker, every batch's own
# curve faint behind it; the percentile axis gives each tenfold rarer tail the same room.
module Rubyrig
  module Reporters
    module Charts
      module Latency
        WIDTH = 760
        HEIGHT = 320
        MODE_DASHES = [nil, "7 4", "2 3", "9 3 2 3"].freeze

        module_function

        def render(plot, styles)
          axis = plot.axis
          left = Svg.y_axis_room(axis)
          right = WIDTH - 30
          top = 14
          bottom = HEIGHT - 46
          first, last = plot.positions.minmax
          x = ->(pos) { left + 30 + (pos - first) / (last - first) * (right - left - 60) }
          y = ->(v) { Svg.place(axis, v, bottom, top) }
          parts = [Svg.y_axis(axis, x: left, top: top, bottom: bottom, grid_right: right),
            %(<line x1="#{left}" x2="#{right}" y1="#{bottom}" y2="#{bottom}" stroke="#888"/>)]
          plot.percentiles.zip(plot.positions).each do |pct, pos|
            parts << %(<line x1="#{Svg.r(x.call(pos))}" x2="#{Svg.r(x.call(pos))}" y1="#{top}" y2="#{bottom}" stroke="#ececec"/>)
            parts << Svg.text_centered(x.call(pos), bottom + 17, "p#{pct.to_s.delete_suffix(".0")}", width: WIDTH)
          end
          parts << Svg.text_centered((left + right) / 2.0, HEIGHT - 8, "percentile (log-scaled tail)", width: WIDTH, css: "axis-title", fill: "#333")
          plot.series.each { |s| parts.concat(series(plot, s, series_style(plot, s, styles), x, y)) }
          fixed = Format.params(plot.fixed)
          Svg.svg(WIDTH, HEIGHT, parts, title: "latency percentiles · #{plot.workload}#{" · #{fixed}" unless fixed.empty?}", css: "plot")
        end

        # One runtime and mode: every batch's faint curve, the medians' curve, whiskers and markers.
        def series(plot, s, style, x, y)
          parts = []
          dash = style.line ? %( stroke-dasharray="#{style.line}") : ""
          s.batches.each do |b|
            points = plot.positions.zip(b["values"]).map { |pos, v| [x.call(pos), y.call(v)] }
            tip = "#{s.runtime} #{s.mode} batch #{b["batch_id"]}: " + plot.percentiles.zip(b["values"]).map { |p, v| "p#{p} #{Format.seconds(v)}" }.join(", ")
            parts << %(<polyline class="batch-curve" points="#{Svg.pts(points)}" fill="none" stroke="#{style.color}" stroke-opacity="0.28" stroke-width="1"#{dash}><title>#{Svg.esc(tip)}</title></polyline>)
          end
          drawn = plot.positions.each_index.reject { |i| s.medians[i].nil? }
          parts << %(<polyline class="median-curve" points="#{Svg.pts(drawn.map { |i| [x.call(plot.positions[i]), y.call(s.medians[i])] })}" fill="none" stroke="#{style.color}" stroke-width="2.4"#{dash}/>)
          drawn.each do |i|
            px = x.call(plot.positions[i])
            if (ci = s.median_cis[i])
              parts << %(<line class="whisker" x1="#{Svg.r(px)}" x2="#{Svg.r(px)}" y1="#{Svg.r(y.call(ci[0]))}" y2="#{Svg.r(y.call(ci[1]))}" stroke="#{style.color}" stroke-width="1.5"/>)
            end
            tip = "#{s.runtime} #{s.mode} p#{plot.percentiles[i]}: median #{Format.with_interval(s.medians[i], ci, "s")}"
            parts << Svg.marker(style.shape, px, y.call(s.medians[i]), size: 4.5, color: style.color, title: tip, css: "point")
          end
          parts
        end

        # The runtime's colour and marker with the connection mode's dash.
        def series_style(plot, series, styles)
          modes = plot.series.map(&:mode).uniq
          base = styles.fetch(series.runtime)
          Svg::Style.new(color: base.color, shape: base.shape, filled: true, line: MODE_DASHES[modes.index(series.mode) % MODE_DASHES.size])
        end

        def legend(plot, styles)
          items = plot.series.map do |s|
            %(<li>#{Svg.swatch(series_style(plot, s, styles))} <code>#{Svg.esc(s.runtime)}</code> · #{Svg.esc(s.measured_by || s.mode)}</li>)
          end
          %(<ul class="legend">#{items.join}</ul>)
        end
      end
    end
  end
end
