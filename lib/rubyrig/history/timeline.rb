# The timeline of one history series as inline SVG: each point's median with its interval (the median's
# 95% interval, or the batches' range when there are too few for one, drawn dashed), the level of each
# stretch as a horizontal bar, each decided change point as a line in its verdict's colour and shape,
# the candidates that were not decided as dotted grey lines, and each cut (host, interpreter) as a grey
# band edge with its reason. Computes nothing but pixel positions (the numbers are in the Report).
module Rubyrig
  module History
    module Timeline
      WIDTH = 860
      HEIGHT = 280
      TOP = 26
      BOTTOM = HEIGHT - 50
      Svg = Reporters::Svg

      module_function

      def render(entry)
        axis = Analysis::Axis.fit(entry.marks.flat_map { |m| [m.median, *m.interval] } + entry.levels.map(&:value), unit: entry.unit)
        return "" unless axis
        left = Svg.y_axis_room(axis)
        right = WIDTH - 16
        step = (right - left - 40) / [entry.marks.size - 1, 1].max.to_f
        x = ->(i) { left + 20 + i * step }
        y = ->(v) { Svg.place(axis, v, BOTTOM, TOP) }
        parts = [Svg.y_axis(axis, x: left, top: TOP, bottom: BOTTOM, grid_right: right),
          %(<line x1="#{left}" x2="#{right}" y1="#{BOTTOM}" y2="#{BOTTOM}" stroke="#888"/>)]
        parts.concat(ticks(entry, x, step))
        parts.concat(entry.cuts.map { |c| cut(entry, c, x, step) })
        parts.concat(levels(entry, x, y, step, left..right))
        parts.concat(entry.candidates.map { |c| boundary(c, x, step, "#999", "1 4", "candidate", Phrase.amount(c)) })
        parts.concat(entry.changes.map { |c| change(entry, c, x, step) })
        parts.concat(points(entry, x, y))
        Svg.svg(WIDTH, HEIGHT, parts, title: "#{Phrase.series(entry)} over #{Phrase.count(entry)}", css: "timeline")
      end

      # Labels of the points along the bottom: run numbers by time (every n-th when crowded), else the
      # commits or versions; the axis title under them.
      def ticks(entry, x, step)
        labels = entry.marks.map { |m| (entry.by == "time") ? m.number.to_s : m.label }
        every = [((labels.map { |l| Svg.text_width(l) }.max + 6) / step).ceil, 1].max
        parts = labels.each_with_index.select { |_, i| (i % every).zero? || i == labels.size - 1 }.map do |label, i|
          Svg.text_centered(x.call(i), BOTTOM + 16, label, width: WIDTH)
        end
        title = {"time" => "run (in the order they started)", "commit" => "commit (in the order first measured)", "version" => "interpreter version"}.fetch(entry.by)
        parts << Svg.text_centered(WIDTH / 2.0, HEIGHT - 10, title, width: WIDTH, css: "axis-title", fill: "#333")
      end

      def points(entry, x, y)
        entry.marks.each_with_index.flat_map do |m, i|
          next [] unless m.median
          tip = "#{Phrase.point(entry, i)}: median #{Reporters::Format.value(m.median, entry.unit)}" \
            "#{" [#{Reporters::Format.value(m.interval[0], entry.unit)}, #{Reporters::Format.value(m.interval[1], entry.unit)}] #{(m.interval_kind == "range") ? "range" : "95%"}" if m.interval}, n=#{m.values.size}, host #{m.host_id}"
          dash = (m.interval_kind == "range") ? %( stroke-dasharray="3 2") : ""
          whisker = m.interval ? %(<line class="interval" x1="#{Svg.r(x.call(i))}" x2="#{Svg.r(x.call(i))}" y1="#{Svg.r(y.call(m.interval[0]))}" y2="#{Svg.r(y.call(m.interval[1]))}" stroke="#0072B2" stroke-width="1.6"#{dash}/>) : ""
          [whisker, Svg.marker(:circle, x.call(i), y.call(m.median), size: 3.6, color: "#0072B2", title: tip, css: "point")]
        end
      end

      def levels(entry, x, y, step, room)
        entry.levels.filter_map do |l|
          next unless l.value
          x1 = (x.call(l.from) - [step * 0.4, 40].min).clamp(room.begin + 2, room.end)
          x2 = (x.call(l.to) + [step * 0.4, 40].min).clamp(room.begin + 2, room.end)
          tip = "level #{Reporters::Format.value(l.value, entry.unit)} (#{Phrase.span(entry, l.from..l.to)})"
          %(<line class="level" x1="#{Svg.r(x1)}" x2="#{Svg.r(x2)}" y1="#{Svg.r(y.call(l.value))}" y2="#{Svg.r(y.call(l.value))}" stroke="#D55E00" stroke-width="2.5" stroke-opacity="0.8"><title>#{Svg.esc(tip)}</title></line>)
        end
      end

      def change(entry, c, x, step)
        style = Svg.verdict_style(c.verdict)
        mid = x.call(c.index) - step / 2
        label = "#{style.glyph} #{Phrase.amount(c).split(" [").first} #{c.verdict}"
        boundary(c, x, step, style.color, "6 3", "change-point", Phrase.change(entry, c)) +
          Svg.text_centered(mid, TOP - 10, label, width: WIDTH, css: "change-label", fill: style.color)
      end

      # A vertical line between the point before index and the point at it.
      def boundary(c, x, step, color, dash, css, tip)
        mid = Svg.r(x.call(c.index) - step / 2)
        %(<line class="#{css}" data-index="#{c.index}" x1="#{mid}" x2="#{mid}" y1="#{TOP - 4}" y2="#{BOTTOM}" stroke="#{color}" stroke-width="2" stroke-dasharray="#{dash}"><title>#{Svg.esc(tip)}</title></line>)
      end

      def cut(entry, c, x, step)
        mid = x.call(c.index) - step / 2
        word = (c.reason == "host") ? "new host" : "new build"
        %(<g class="cut" data-index="#{c.index}"><line x1="#{Svg.r(mid)}" x2="#{Svg.r(mid)}" y1="#{TOP - 4}" y2="#{BOTTOM}" stroke="#666" stroke-width="3" stroke-opacity="0.5">) +
          %(<title>#{Svg.esc(Phrase.cut(entry, c))}</title></line>#{Svg.text_centered(mid, BOTTOM - 6, word, width: WIDTH, fill: "#666")}</g>)
      end
    end
  end
end
