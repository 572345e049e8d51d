# Memory against speed for one workload: each cell a point at its median peak RSS and median primary
# metric with both 95% intervals as whiskers, in its runtime's colour and shape and numbered by its
# parameters (the table says which), and the +yjit-mem settings of the same parameters joined in order.
module Rubyrig
  module Reporters
    module Charts
      module MemorySpeed
        WIDTH = 760
        HEIGHT = 340

        module_function

        def render(plot, styles)
          xa = plot.memory_axis
          ya = plot.speed_axis
          left = Svg.y_axis_room(ya)
          right = WIDTH - 30
          top = 14
          bottom = HEIGHT - 46
          x = ->(v) { Svg.place(xa, v, left, right) }
          y = ->(v) { Svg.place(ya, v, bottom, top) }
          parts = [Svg.y_axis(ya, x: left, top: top, bottom: bottom, grid_right: right),
            Svg.x_axis(xa, left: left, right: right, y: bottom, width: WIDTH, grid_top: top),
            Svg.text_centered((left + right) / 2.0, HEIGHT - 8, "peak RSS (x) against #{plot.label} (y)", width: WIDTH, css: "axis-title", fill: "#333")]
          by_key = plot.points.to_h { |p| [p.cell_key, p] }
          plot.lines.each do |keys|
            coords = keys.map { |k| [x.call(by_key[k].memory), y.call(by_key[k].speed)] }
            parts << %(<polyline class="yjit-line" points="#{Svg.pts(coords)}" fill="none" stroke="#444" stroke-width="1.5" stroke-dasharray="5 3"/>)
          end
          plot.points.each { |p| parts.concat(point(plot, p, styles.fetch(p.runtime), x, y)) }
          Svg.svg(WIDTH, HEIGHT, parts, title: "peak RSS against #{plot.label} · #{plot.workload}", css: "plot")
        end

        # One cell: its marker with both whiskers, and its parameters' number beside it.
        def point(plot, p, style, x, y)
          parts = []
          px = x.call(p.memory)
          py = y.call(p.speed)
          if p.memory_ci
            parts << %(<line class="whisker" x1="#{Svg.r(x.call(p.memory_ci[0]))}" x2="#{Svg.r(x.call(p.memory_ci[1]))}" y1="#{Svg.r(py)}" y2="#{Svg.r(py)}" stroke="#{style.color}" stroke-width="1.5"/>)
          end
          if p.speed_ci
            parts << %(<line class="whisker" x1="#{Svg.r(px)}" x2="#{Svg.r(px)}" y1="#{Svg.r(y.call(p.speed_ci[0]))}" y2="#{Svg.r(y.call(p.speed_ci[1]))}" stroke="#{style.color}" stroke-width="1.5"/>)
          end
          tip = "#{p.cell_key}: peak RSS #{Format.with_interval(p.memory, p.memory_ci, "B")}, #{plot.label} #{Format.with_interval(p.speed, p.speed_ci, plot.unit)}, n=#{p.n}"
          parts << Svg.marker(style.shape, px, py, size: 5.5, color: style.color, title: tip, css: "point")
          label = p.group.to_s
          lx = (px + 9 + Svg.text_width(label) > WIDTH - 2) ? px - 9 - Svg.text_width(label) : px + 9
          parts << %(<text class="point-label" x="#{Svg.r(lx)}" y="#{Svg.r(py - 6)}" fill="#222" stroke="#fff" stroke-width="3" paint-order="stroke">#{label}</text>)
          parts
        end
      end
    end
  end
end
