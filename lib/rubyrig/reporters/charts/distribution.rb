# The batches of each cell of one workload and parameters as a table: per runtime a lane with every
# batch as a point, the median as a bar and its 95% interval behind it, on a shared axis that never
# goes below zero (log scale when the values span more than four times), then the numbers.
module Rubyrig
  module Reporters
    module Charts
      module Distribution
        WIDTH = 460
        PAD = 34
        HEIGHT = 30

        module_function

        def render(plot, styles)
          axis = plot.axis
          head = Svg.svg(WIDTH, 28, [Svg.x_axis(axis, left: PAD, right: WIDTH - PAD, y: 4, width: WIDTH)],
            title: "#{plot.label} axis", css: "lane-axis")
          rows = plot.cells.map do |cell|
            ci = cell.median_ci ? "[#{Format.value(cell.median_ci[0], plot.unit)}, #{Format.value(cell.median_ci[1], plot.unit)}]" : %(<span class="muted">needs 6 batches</span>)
            %(<tr><td class="label"><code>#{Svg.esc(cell.runtime)}</code></td><td class="lane">#{lane(plot, cell, styles.fetch(cell.runtime))}</td>) +
              %(<td class="num">#{cell.n}</td><td class="num">#{Format.value(cell.median, plot.unit)}</td><td class="num">#{ci}</td></tr>)
          end
          scale = axis.log ? "log scale" : "linear scale"
          direction = plot.higher_is_better ? "higher is better" : "lower is better"
          <<~HTML
            <figure class="chart" data-figure="distribution" data-metric="#{Svg.esc(plot.metric)}">
            <figcaption>#{Svg.esc(plot.label)} (#{direction}) of every batch, one point each; the bar is the median, the shaded span its 95% interval (#{scale}).</figcaption>
            <table class="lanes"><thead><tr><th>runtime</th><th class="lane">#{head}</th><th>n</th><th>median</th><th>95% CI of the median</th></tr></thead>
            <tbody>#{rows.join}</tbody></table></figure>
          HTML
        end

        def lane(plot, cell, style)
          return Svg.svg(WIDTH, HEIGHT, [], title: "#{cell.runtime}: no ok batches", css: "lane-svg") if cell.n.zero?
          axis = plot.axis
          x = ->(v) { Svg.place(axis, v, PAD, WIDTH - PAD) }
          mid = HEIGHT / 2.0
          parts = axis.ticks.map { |t| %(<line x1="#{Svg.r(x.call(t))}" x2="#{Svg.r(x.call(t))}" y1="0" y2="#{HEIGHT}" stroke="#ececec"/>) }
          if cell.median_ci
            lo, hi = cell.median_ci.map { |v| x.call(v) }
            parts << %(<rect class="median-ci" x="#{Svg.r(lo)}" y="#{mid - 8}" width="#{Svg.r([hi - lo, 1].max)}" height="16" fill="#{style.color}" fill-opacity="0.18"><title>95% CI of the median: #{Svg.esc(Format.value(cell.median_ci[0], plot.unit))} to #{Svg.esc(Format.value(cell.median_ci[1], plot.unit))}</title></rect>)
          end
          cell.values.each_with_index do |v, i|
            jitter = ((i % 7) - 3) * 1.6
            parts << Svg.marker(style.shape, x.call(v), mid + jitter, size: 3.2, color: style.color, filled: true,
              title: "#{cell.runtime} batch #{cell.batch_ids[i]}: #{Format.value(v, plot.unit)}", css: "batch")
          end
          if cell.median
            parts << %(<line class="median" x1="#{Svg.r(x.call(cell.median))}" x2="#{Svg.r(x.call(cell.median))}" y1="3" y2="#{HEIGHT - 3}" stroke="#111" stroke-width="2.5"><title>median #{Svg.esc(Format.value(cell.median, plot.unit))}</title></line>)
          end
          Svg.svg(WIDTH, HEIGHT, parts, title: "#{cell.runtime}: #{cell.n} batches, median #{Format.value(cell.median, plot.unit)}", css: "lane-svg")
        end
      end
    end
  end
end
