# The verdict forest plot of one metric as a table: per comparison the runtime, workload and parameters
# in full (HTML text wraps, nothing is cut), a lane with the ratio, its interval and the equivalence
# band around the baseline's 1.0 on a shared log axis, then the numbers and the verdict.
module Rubyrig
  module Reporters
    module Charts
      module Forest
        WIDTH = 340
        PAD = 30
        HEIGHT = 26

        module_function

        # figure: the picture's data-figure name (a ruby-bench suite's benchmarks are drawn alike).
        def render(plot, figure: "verdicts")
          axis = plot.axis
          head = Svg.svg(WIDTH, 28, [Svg.x_axis(axis, left: PAD, right: WIDTH - PAD, y: 4, width: WIDTH)],
            title: "ratio axis, log scale", css: "lane-axis")
          rows = plot.rows.map { |row| row_html(plot, row) }
          band = format("%g%%", (plot.margin * 100).round(2))
          direction = plot.higher_is_better ? "higher is better" : "lower is better"
          <<~HTML
            <figure class="chart" data-figure="#{figure}" data-metric="#{Svg.esc(plot.metric)}">
            <figcaption><strong>#{Svg.esc(plot.label)}</strong> (#{direction}): each runtime's ratio to the baseline <code>#{Svg.esc(plot.baseline)}</code> with the interval decided on#{" (#{plot.confidences.map { |c| Analysis::Section.percent(c) }.join(", ")})" unless plot.confidences.empty?}, log scale; the shaded band is equivalence (±#{band}).</figcaption>
            <table class="lanes"><thead><tr><th>runtime</th><th>workload and parameters</th><th class="lane">#{head}</th><th>ratio [interval]</th><th>p (corrected)</th><th>verdict</th></tr></thead>
            <tbody>#{rows.join}</tbody></table>#{reasons(plot)}</figure>
          HTML
        end

        # The reasons of the rows marked *: what would decide an inconclusive one, why one is equivalent
        # or was not compared; below the table, where long text wraps.
        def reasons(plot)
          items = plot.rows.select(&:reason).map do |row|
            where = [row.runtime, row.workload, Format.params(row.params)].reject(&:empty?).join(" · ")
            %(<li><code>#{Svg.esc(where)}</code>: #{Html.verdict_html(row.verdict, glyph: false)}: #{Svg.esc(row.reason)}</li>)
          end
          items.empty? ? "" : %(<ul class="reasons">#{items.join}</ul>)
        end

        def row_html(plot, row)
          where = [row.workload, Format.params(row.params)].reject(&:empty?).join(" · ")
          style = Svg.verdict_style(row.verdict)
          numbers = row.ratio ? "#{Format.ratio(row.ratio)} #{Format.ci(row.ci)}" : "n/a"
          verdict = Html.verdict_html(row.verdict)
          verdict += "*" if row.reason
          tip = "#{row.runtime} · #{where}: #{numbers}, p=#{Format.p_value(row.p_adjusted)}, #{row.verdict} (n=#{row.n}/#{row.baseline_n})"
          %(<tr class="forest-row" data-verdict="#{Svg.esc(row.verdict)}"><td class="label"><code>#{Svg.esc(row.runtime)}</code></td>) +
            %(<td class="label where">#{Svg.esc(where)}</td><td class="lane">#{lane(plot, row, style, tip)}</td>) +
            %(<td class="num">#{row.ratio ? "#{Format.ratio(row.ratio)}<br>#{Format.ci(row.ci)}" : "n/a"}</td><td class="num">#{Format.p_value(row.p_adjusted)}</td><td>#{verdict}</td></tr>)
        end

        def lane(plot, row, style, tip)
          axis = plot.axis
          x = ->(v) { Svg.place(axis, v, PAD, WIDTH - PAD) }
          y = HEIGHT / 2.0
          parts = [%(<rect class="band" x="#{Svg.r(x.call(1 - plot.margin))}" y="0" width="#{Svg.r(x.call(1 + plot.margin) - x.call(1 - plot.margin))}" height="#{HEIGHT}" fill="#dce8f4"/>)]
          parts.concat(axis.ticks.map { |t| %(<line x1="#{Svg.r(x.call(t))}" x2="#{Svg.r(x.call(t))}" y1="0" y2="#{HEIGHT}" stroke="#ececec"/>) })
          parts << %(<line class="one" x1="#{Svg.r(x.call(1.0))}" x2="#{Svg.r(x.call(1.0))}" y1="0" y2="#{HEIGHT}" stroke="#555" stroke-dasharray="3 2"/>)
          if row.ratio
            if row.ci
              dash = style.line ? %( stroke-dasharray="#{style.line}") : ""
              parts << %(<line class="interval" x1="#{Svg.r(x.call(row.ci[0]))}" x2="#{Svg.r(x.call(row.ci[1]))}" y1="#{y}" y2="#{y}" stroke="#{style.color}" stroke-width="2.5"#{dash}/>)
            end
            parts << Svg.marker(style.shape, x.call(row.ratio), y, size: 6, color: style.color, filled: style.filled, title: tip, css: "verdict-mark")
          end
          Svg.svg(WIDTH, HEIGHT, parts, title: tip, css: "lane-svg")
        end
      end
    end
  end
end
