# A jobs workload over time: per runtime a lane with the median phases of a batch (enqueue, boot,
# waiting at the gate, drain) from the enqueue's start, then every batch's count of finished jobs since
# the gate opened as a line.
module Rubyrig
  module Reporters
    module Charts
      module Jobs
        PHASES = {"enqueue" => "#a6cee3", "boot" => "#d95f02", "gate" => "#d9d9d9", "drain" => "#1b7837"}.freeze
        PHASE_NAMES = {"enqueue" => "enqueue", "boot" => "workers boot", "gate" => "ready, gate closed", "drain" => "drain"}.freeze
        LANE_W = 420
        PAD = 24
        WIDTH = 760
        HEIGHT = 300

        module_function

        def render(plot, styles)
          title = [plot.workload, Format.params(plot.params)].reject(&:empty?).join(" · ")
          <<~HTML
            <figure class="chart" data-figure="jobs">
            <figcaption>Phases of a batch (medians, seconds from the start of the enqueue) and the jobs finished since the gate opened, one line per batch · #{Svg.esc(title)}</figcaption>
            #{phase_table(plot)}
            #{curves(plot, styles)}
            #{Html.legend(plot.runtimes.map(&:runtime), styles)}
            </figure>
          HTML
        end

        def phase_table(plot)
          axis = plot.phase_axis
          head = Svg.svg(LANE_W, 28, [Svg.x_axis(axis, left: PAD, right: LANE_W - PAD, y: 4, width: LANE_W)], title: "seconds from the enqueue's start", css: "lane-axis")
          keys = PHASES.keys.map { |k| "<li>#{phase_swatch(k)} #{PHASE_NAMES[k]}</li>" }
          rows = plot.runtimes.map do |r|
            lengths = PHASES.keys.map { |k| "<td class=\"num\">#{Format.seconds(r.durations[k])}</td>" }
            done = r.finished_by.values.map { |t| Format.seconds(t) }.join(" / ")
            %(<tr><td class="label"><code>#{Svg.esc(r.runtime)}</code></td><td class="lane">#{lane(axis, r)}</td>#{lengths.join}<td class="num">#{done}</td></tr>)
          end
          %(<ul class="legend">#{keys.join}</ul><table class="lanes"><thead><tr><th>runtime</th><th class="lane">#{head}</th>) +
            %(<th>enqueue</th><th>boot</th><th>at the gate</th><th>drain</th><th>half / 90% / all done after the gate</th></tr></thead><tbody>#{rows.join}</tbody></table>) +
            %(<p class="muted">Lengths are medians over batches; the bars place each phase at its median start and end.</p>)
        end

        def lane(axis, runtime)
          x = ->(v) { Svg.place(axis, v, PAD, LANE_W - PAD) }
          parts = PHASES.map do |key, color|
            from, to = runtime.phases[key]
            tip = "#{runtime.runtime} #{PHASE_NAMES[key]}: #{Format.seconds(from)} to #{Format.seconds(to)}"
            %(<rect class="phase" x="#{Svg.r(x.call(from))}" y="6" width="#{Svg.r([x.call(to) - x.call(from), 1.5].max)}" height="14" fill="#{color}"><title>#{Svg.esc(tip)}</title></rect>)
          end
          Svg.svg(LANE_W, 26, parts, title: "phases of #{runtime.runtime}", css: "lane-svg")
        end

        def phase_swatch(key)
          %(<svg class="swatch" width="22" height="14" viewBox="0 0 22 14" aria-hidden="true"><rect x="1" y="2" width="20" height="10" fill="#{PHASES[key]}"/></svg>)
        end

        def curves(plot, styles)
          xa = plot.drain_axis
          ya = plot.count_axis
          left = Svg.y_axis_room(ya)
          right = WIDTH - 24
          top = 14
          bottom = HEIGHT - 46
          x = ->(v) { Svg.place(xa, v, left, right) }
          y = ->(v) { Svg.place(ya, v, bottom, top) }
          parts = [Svg.y_axis(ya, x: left, top: top, bottom: bottom, grid_right: right),
            Svg.x_axis(xa, left: left, right: right, y: bottom, width: WIDTH, grid_top: top),
            Svg.text_centered((left + right) / 2.0, HEIGHT - 8, "seconds since the gate opened; jobs finished", width: WIDTH, css: "axis-title", fill: "#333")]
          plot.runtimes.each do |r|
            style = styles.fetch(r.runtime)
            dash = style.line ? %( stroke-dasharray="#{style.line}") : ""
            r.batches.each do |b|
              tip = "#{r.runtime} batch #{b["batch_id"]}: #{b["completed"].last} jobs by #{Format.seconds(b["times"].last)} after the gate"
              parts << %(<polyline class="jobs-curve" points="#{Svg.pts(b["times"].zip(b["completed"]).map { |t, c| [x.call(t), y.call(c)] })}" fill="none" stroke="#{style.color}" stroke-width="1.6" stroke-opacity="0.8"#{dash}><title>#{Svg.esc(tip)}</title></polyline>)
            end
          end
          Svg.svg(WIDTH, HEIGHT, parts, title: "jobs finished since the gate opened", css: "plot")
        end
      end
    end
  end
end
