# HTTP errors per batch: one bar per ok batch, grouped and numbered by cell (the numbers are explained
# in the table beside it), on a count axis from zero; a batch without errors still shows as a tick.
module Rubyrig
  module Reporters
    module Charts
      module Errors
        WIDTH = 760
        HEIGHT = 200

        module_function

        def render(plot, styles)
          axis = plot.axis
          left = Svg.y_axis_room(axis)
          right = WIDTH - 16
          top = 12
          bottom = HEIGHT - 40
          count = plot.cells.sum { |c| c.batches.size }
          gap = 14.0
          slot = (right - left - 10 - gap * (plot.cells.size - 1)) / [count, 1].max
          bar = (slot * 0.7).clamp(1.0, 22.0)
          y = ->(v) { Svg.place(axis, v, bottom, top) }
          parts = [Svg.y_axis(axis, x: left, top: top, bottom: bottom, grid_right: right),
            %(<line x1="#{left}" x2="#{right}" y1="#{bottom}" y2="#{bottom}" stroke="#888"/>)]
          cursor = left + 5.0
          plot.cells.each_with_index do |cell, index|
            style = styles.fetch(cell.runtime)
            start = cursor
            cell.batches.each do |b|
              errors = b["error_count"].to_f
              top_y = y.call(errors)
              tip = "#{cell.cell_key}, batch #{b["batch_id"]}: #{Format.significant(b["error_count"])} errors in #{Format.significant(b["request_count"])} responses"
              parts << %(<rect class="error-bar" x="#{Svg.r(cursor + (slot - bar) / 2)}" y="#{Svg.r([top_y, bottom - 1.5].min)}" width="#{Svg.r(bar)}" height="#{Svg.r([bottom - top_y, 1.5].max)}" fill="#{style.color}"><title>#{Svg.esc(tip)}</title></rect>)
              cursor += slot
            end
            parts << Svg.text_centered((start + cursor) / 2, bottom + 17, (index + 1).to_s, width: WIDTH)
            cursor += gap
          end
          parts << Svg.text_centered((left + right) / 2.0, HEIGHT - 6, "cell (see the table), one bar per batch", width: WIDTH, css: "axis-title", fill: "#333")
          Svg.svg(WIDTH, HEIGHT, parts, title: "errors per batch · #{plot.workload}", css: "plot")
        end
      end
    end
  end
end
