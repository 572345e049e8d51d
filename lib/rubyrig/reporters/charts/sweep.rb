# A sweep as a line chart: per runtime the median at each swept value, joined, with the 95% interval of
# each median as a shaded band where the batches allow one; the runtimes in the legend below.
module Rubyrig
  module Reporters
    module Charts
      module Sweep
        WIDTH = 760
        HEIGHT = 300

        module_function

        # figure: the picture's data-figure name (a runtime's warmup curve over iterations is drawn alike).
        def render(plot, styles, figure: "sweep")
          axis = plot.axis
          left = Svg.y_axis_room(axis)
          right = WIDTH - 24
          top = 14
          bottom = HEIGHT - 46
          step = (right - left - 60) / [plot.values.size - 1, 1].max.to_f
          x = ->(i) { left + 30 + i * step }
          y = ->(v) { Svg.place(axis, v, bottom, top) }
          parts = [Svg.y_axis(axis, x: left, top: top, bottom: bottom, grid_right: right),
            %(<line x1="#{left}" x2="#{right}" y1="#{bottom}" y2="#{bottom}" stroke="#888"/>)]
          plot.values.each_with_index do |value, i|
            parts << Svg.text_centered(x.call(i), bottom + 17, value.to_s, width: WIDTH)
          end
          parts << Svg.text_centered((left + right) / 2.0, HEIGHT - 8, plot.param, width: WIDTH, css: "axis-title", fill: "#333")
          plot.series.each { |runtime, points| parts.concat(series(plot, runtime, points, styles.fetch(runtime), x, y)) }
          fixed = Format.params(plot.fixed)
          title = "#{plot.label} over #{plot.param} · #{plot.workload}#{" · #{fixed}" unless fixed.empty?}"
          <<~HTML
            <figure class="chart" data-figure="#{figure}">
            #{Svg.svg(WIDTH, HEIGHT, parts, title: title, css: "plot")}
            #{Html.legend(plot.series.keys, styles)}
            <figcaption>#{Svg.esc(plot.label)} per runtime at each value of #{Svg.esc(plot.param)} (medians; shaded: 95% interval of the median, drawn from 6 batches on; #{axis.log ? "log" : "linear"} scale).</figcaption>
            </figure>
          HTML
        end

        # One runtime: its band, line and a marker per value.
        def series(plot, runtime, points, style, x, y)
          parts = []
          drawn = points.each_with_index.reject { |p, _| p.median.nil? }
          bands(drawn, x, y).each { |poly| parts << %(<polygon class="band" points="#{poly}" fill="#{style.color}" fill-opacity="0.16" stroke="none"/>) }
          dash = style.line ? %( stroke-dasharray="#{style.line}") : ""
          parts << %(<polyline class="series" points="#{Svg.pts(drawn.map { |p, i| [x.call(i), y.call(p.median)] })}" fill="none" stroke="#{style.color}" stroke-width="2.2"#{dash}/>)
          drawn.each do |p, i|
            tip = "#{runtime}, #{plot.param}=#{p.value}: median #{Format.with_interval(p.median, p.median_ci, plot.unit)}, n=#{p.n}"
            parts << Svg.marker(style.shape, x.call(i), y.call(p.median), size: 4.5, color: style.color, title: tip, css: "point")
          end
          parts
        end

        # Polygons around consecutive points that have an interval.
        def bands(drawn, x, y)
          runs = drawn.slice_when { |(a, _), (b, _)| a.median_ci.nil? || b.median_ci.nil? }.select { |run| run.size > 1 && run.all? { |p, _| p.median_ci } }
          runs.map do |run|
            upper = run.map { |p, i| [x.call(i), y.call(p.median_ci[1])] }
            lower = run.reverse.map { |p, i| [x.call(i), y.call(p.median_ci[0])] }
            Svg.pts(upper + lower)
          end
        end
      end
    end
  end
end
