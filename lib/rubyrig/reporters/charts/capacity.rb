# Latency against offered rate from capacity searches: per runtime (colour and marker) every batch's
# steps joined in order of rate, filled where the rate was sustained and hollow where not; the
# objective's bound as a dashed line, and each runtime's median capacity as a vertical line with its
# 95% interval shaded, so that the knee and where each runtime crosses the bound show.
module Rubyrig
  module Reporters
    module Charts
      module Capacity
        WIDTH = 760
        HEIGHT = 340

        module_function

        def render(plot, styles)
          left = Svg.y_axis_room(plot.y_axis)
          right = WIDTH - 24
          top = 14
          bottom = HEIGHT - 46
          x = ->(v) { Svg.place(plot.x_axis, v, left, right) }
          y = ->(v) { Svg.place(plot.y_axis, v, bottom, top) }
          parts = [Svg.y_axis(plot.y_axis, x: left, top: top, bottom: bottom, grid_right: right),
            Svg.x_axis(plot.x_axis, left: left, right: right, y: bottom, width: WIDTH, grid_top: top),
            Svg.text_centered((left + right) / 2.0, HEIGHT - 8, "offered rate (requests/s)", width: WIDTH, css: "axis-title", fill: "#333")]
          plot.series.each { |s| parts.concat(capacity_line(plot, s, styles.fetch(s.runtime), x, top, bottom)) }
          parts << bound(plot, y, left, right)
          plot.series.each { |s| parts.concat(series(plot, s, styles.fetch(s.runtime), x, y)) }
          fixed = Format.params(plot.fixed)
          Svg.svg(WIDTH, HEIGHT, parts, title: "latency against offered rate · #{plot.workload}#{" · #{fixed}" unless fixed.empty?}", css: "plot")
        end

        def bound(plot, y, left, right)
          at = Svg.r(y.call(plot.bound_s))
          %(<g class="objective"><line x1="#{left}" x2="#{right}" y1="#{at}" y2="#{at}" stroke="#b00" stroke-width="1.5" stroke-dasharray="6 4"/>) +
            %(<text x="#{right - 4}" y="#{at - 5}" text-anchor="end" fill="#b00">#{Svg.esc(plot.objective)}</text></g>)
        end

        # The runtime's median capacity, its interval shaded behind it.
        def capacity_line(plot, s, style, x, top, bottom)
          return [] unless s.capacity_per_s
          parts = []
          if (ci = s.capacity_ci)
            parts << %(<rect class="capacity-ci" x="#{Svg.r(x.call(ci[0]))}" y="#{top}" width="#{Svg.r(x.call(ci[1]) - x.call(ci[0]))}" ) +
              %(height="#{bottom - top}" fill="#{style.color}" fill-opacity="0.12"/>)
          end
          at = Svg.r(x.call(s.capacity_per_s))
          tip = "#{s.runtime}: capacity #{Format.with_interval(s.capacity_per_s, s.capacity_ci, "1/s")} at #{plot.objective}, n=#{s.n}"
          parts << %(<line class="capacity" x1="#{at}" x2="#{at}" y1="#{top}" y2="#{bottom}" stroke="#{style.color}" stroke-width="1.5" stroke-dasharray="3 3"><title>#{Svg.esc(tip)}</title></line>)
        end

        # Every batch of one runtime: its steps joined by rate, a marker per step.
        def series(plot, s, style, x, y)
          label = plot.objective.split(" ").first
          s.batches.flat_map do |b|
            points = b["points"].map { |rate, latency, _| [x.call(rate), y.call(latency)] }
            line = %(<polyline class="batch-steps" points="#{Svg.pts(points)}" fill="none" stroke="#{style.color}" stroke-opacity="0.45" stroke-width="1.2"/>)
            marks = b["points"].map do |rate, latency, sustained|
              tip = "#{s.runtime} batch #{b["batch_id"]}: #{Format.value(rate, "1/s")} offered, #{label} #{Format.seconds(latency)}, #{sustained ? "sustained" : "not sustained"}"
              Svg.marker(style.shape, x.call(rate), y.call(latency), size: 4, color: style.color, filled: sustained, title: tip, css: "step")
            end
            [line, *marks]
          end
        end
      end
    end
  end
end
