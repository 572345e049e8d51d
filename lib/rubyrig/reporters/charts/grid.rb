# A processes × threads (or × concurrency) heat map of one runtime: each combination a square shaded by
# its median throughput on a scale shared by the runtimes of the workload, the value written inside.
module Rubyrig
  module Reporters
    module Charts
      module Grid
        CELL_W = 118
        CELL_H = 44
        LEFT = 96
        TOP = 40

        module_function

        def render(plot)
          width = LEFT + plot.columns.size * CELL_W + 12
          height = TOP + plot.rows.size * CELL_H + 12
          parts = [%(<text class="axis-title" x="#{LEFT + plot.columns.size * CELL_W / 2.0}" y="14" text-anchor="middle" fill="#333">#{Svg.esc(plot.column_param)} →</text>),
            %(<text class="axis-title" x="8" y="#{TOP - 6}" fill="#333">#{Svg.esc(plot.row_param)} ↓</text>)]
          plot.columns.each_with_index do |c, j|
            parts << Svg.text_centered(LEFT + (j + 0.5) * CELL_W, TOP - 8, c.to_s, width: width)
          end
          plot.rows.each_with_index do |row, i|
            y = TOP + i * CELL_H
            parts << %(<text class="tick" x="#{LEFT - 10}" y="#{y + CELL_H / 2 + 4}" text-anchor="end" fill="#555">#{Svg.esc(row)}</text>)
            plot.columns.each_with_index do |column, j|
              parts << square(plot, plot.medians[i][j], plot.n[i][j], LEFT + j * CELL_W, y, "#{plot.row_param}=#{row} #{plot.column_param}=#{column}")
            end
          end
          axis_data = %(<g class="axis axis-color" data-min="#{plot.scale.min}" data-max="#{plot.scale.max}" data-log="false"></g>)
          Svg.svg(width, height, parts + [axis_data], title: "#{plot.label} of #{plot.runtime} over #{plot.row_param} × #{plot.column_param}", css: "plot")
        end

        def square(plot, median, n, x, y, where)
          return %(<rect class="grid-cell empty" x="#{x + 2}" y="#{y + 2}" width="#{CELL_W - 4}" height="#{CELL_H - 4}" fill="#f4f4f4"><title>#{Svg.esc(where)}: not run</title></rect>) unless median
          share = plot.scale.fraction(median).clamp(0.0, 1.0)
          text = Format.value(median, plot.unit)
          ink = (share > 0.55) ? "#fff" : "#111"
          %(<rect class="grid-cell" x="#{x + 2}" y="#{y + 2}" width="#{CELL_W - 4}" height="#{CELL_H - 4}" fill="#{shade(share)}"><title>#{Svg.esc("#{plot.runtime}, #{where}: median #{text}, n=#{n}")}</title></rect>) +
            %(<text class="value" x="#{x + CELL_W / 2.0}" y="#{y + CELL_H / 2.0 + 4}" text-anchor="middle" fill="#{ink}">#{Svg.esc(text)}</text>)
        end

        # From a pale to a deep blue, so that the order of the values survives grey print.
        def shade(share)
          low = [239, 243, 255]
          high = [8, 48, 107]
          format("#%02x%02x%02x", *low.zip(high).map { |a, b| (a + (b - a) * share).round })
        end
      end
    end
  end
end
