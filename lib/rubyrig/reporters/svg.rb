# Drawing primitives for the HTML report's inline SVG, with no scripts or outside files: the page's
# styles for runtimes and verdicts (a colour and a shape each, so that they read in grey print too),
# markers, axes placed from an Analysis::Axis, and text that is escaped and kept inside its box.
require "cgi"

module Rubyrig
  module Reporters
    module Svg
      FONT_SIZE = 12
      # A generous advance of one 12 px sans-serif character: labels are placed so that even this
      # width stays inside the picture (the browser test measures the real boxes).
      CHAR_W = 8.0
      # Okabe and Ito's colours, told apart with colour-blindness; shapes and dashes tell them apart
      # without colour.
      COLORS = %w[#0072B2 #E69F00 #009E73 #CC79A7 #56B4E9 #D55E00 #000000 #999999].freeze
      SHAPES = %i[circle square triangle diamond triangle_down cross].freeze
      DASHES = [nil, "7 4", "2 3", "9 3 2 3"].freeze

      Style = Struct.new(:color, :shape, :filled, :glyph, :line, keyword_init: true)

      v = Analysis::Verdict
      VERDICTS = {
        v::FASTER => Style.new(color: "#1b7837", shape: :triangle, filled: true, glyph: "▲", line: nil),
        v::SLOWER => Style.new(color: "#b2182b", shape: :triangle_down, filled: true, glyph: "▼", line: nil),
        v::HIGHER => Style.new(color: "#b35806", shape: :square, filled: true, glyph: "■", line: nil),
        v::LOWER => Style.new(color: "#2166ac", shape: :diamond, filled: true, glyph: "◆", line: nil),
        v::EQUIVALENT => Style.new(color: "#1f4e79", shape: :circle, filled: false, glyph: "○", line: nil),
        v::INCONCLUSIVE => Style.new(color: "#666666", shape: :square, filled: false, glyph: "□", line: "4 3"),
        v::NOT_COMPARED => Style.new(color: "#888888", shape: :cross, filled: false, glyph: "×", line: "1 3")
      }.freeze

      module_function

      def esc(text) = CGI.escapeHTML(text.to_s)

      def verdict_style(word) = VERDICTS.fetch(word) { VERDICTS.fetch(Analysis::Verdict::NOT_COMPARED) }

      # The i-th runtime's colour, shape and dash.
      def runtime_style(index)
        Style.new(color: COLORS[index % COLORS.size], shape: SHAPES[index % SHAPES.size], filled: true,
          line: DASHES[index % DASHES.size]).freeze
      end

      # A whole picture: role img, its title for screen readers, fixed size, and the parts.
      def svg(width, height, parts, title:, css: nil)
        %(<svg xmlns="http://www.w3.org/2000/svg" class="#{css}" role="img" width="#{width}" height="#{height}" ) +
          %(viewBox="0 0 #{width} #{height}" font-size="#{FONT_SIZE}" font-family="system-ui, sans-serif">) +
          %(<title>#{esc(title)}</title>#{parts.join}</svg>)
      end

      def text_width(text) = text.to_s.length * CHAR_W

      # Text centred on x, shifted just enough to stay inside 0..width.
      def text_centered(x, y, string, width:, css: "tick", fill: "#555")
        half = text_width(string) / 2
        x = x.clamp(half + 2, width - half - 2)
        %(<text class="#{css}" x="#{r(x)}" y="#{r(y)}" text-anchor="middle" fill="#{fill}">#{esc(string)}</text>)
      end

      def r(number) = number.round(1)

      # One data mark; title: its numbers as a tooltip.
      def marker(shape, x, y, size:, color:, filled: true, title: nil, css: "mark")
        fill = filled ? color : "#fff"
        paint = %(fill="#{fill}" stroke="#{color}" stroke-width="#{filled ? 1 : 2}")
        tip = title ? "<title>#{esc(title)}</title>" : ""
        s = size
        shape_xml = case shape
        when :square then %(<rect x="#{r(x - s * 0.85)}" y="#{r(y - s * 0.85)}" width="#{r(s * 1.7)}" height="#{r(s * 1.7)}" #{paint}>)
        when :triangle then %(<polygon points="#{pts([[x, y - s * 1.1], [x + s, y + s * 0.75], [x - s, y + s * 0.75]])}" #{paint}>)
        when :triangle_down then %(<polygon points="#{pts([[x, y + s * 1.1], [x + s, y - s * 0.75], [x - s, y - s * 0.75]])}" #{paint}>)
        when :diamond then %(<polygon points="#{pts([[x, y - s * 1.2], [x + s * 1.2, y], [x, y + s * 1.2], [x - s * 1.2, y]])}" #{paint}>)
        when :cross then %(<path d="M#{r(x - s)},#{r(y - s)}L#{r(x + s)},#{r(y + s)}M#{r(x - s)},#{r(y + s)}L#{r(x + s)},#{r(y - s)}" stroke="#{color}" stroke-width="2.5" fill="none">)
        else %(<circle cx="#{r(x)}" cy="#{r(y)}" r="#{r(s)}" #{paint}>)
        end
        tag = shape_xml[/\A<(\w+)/, 1]
        shape_xml.sub(/\A<(\w+) /, %(<\\1 class="#{css}" )) + "#{tip}</#{tag}>"
      end

      def pts(list) = list.map { |x, y| "#{r(x)},#{r(y)}" }.join(" ")

      # Where value lies between the pixels from and to along the axis.
      def place(axis, value, from, to) = from + axis.fraction(value) * (to - from)

      # A horizontal axis at y between the pixels left and right: ticks, labels and light grid lines up
      # to grid_top. The group carries the axis's range for tests and tools.
      def x_axis(axis, left:, right:, y:, width:, grid_top: nil, labels: true)
        every = label_step(axis, left, right)
        parts = axis.ticks.each_with_index.flat_map do |t, i|
          x = place(axis, t, left, right)
          [(grid_top ? %(<line x1="#{r(x)}" x2="#{r(x)}" y1="#{r(grid_top)}" y2="#{r(y)}" stroke="#e4e4e4"/>) : ""),
            %(<line x1="#{r(x)}" x2="#{r(x)}" y1="#{r(y)}" y2="#{r(y + 4)}" stroke="#888"/>),
            ((labels && (i % every).zero?) ? text_centered(x, y + 17, Format.tick(t, axis.unit), width: width) : "")]
        end
        axis_group("x", axis, [%(<line x1="#{r(left)}" x2="#{r(right)}" y1="#{r(y)}" y2="#{r(y)}" stroke="#888"/>), *parts])
      end

      # Label every n-th tick when the labels would otherwise touch.
      def label_step(axis, left, right)
        return 1 if axis.ticks.size < 2
        widest = axis.ticks.map { |t| text_width(Format.tick(t, axis.unit)) }.max
        closest = axis.ticks.each_cons(2).map { |a, b| (place(axis, b, left, right) - place(axis, a, left, right)).abs }.min
        (closest.positive? && closest < widest + 6) ? ((widest + 6) / closest).ceil : 1
      end

      # A vertical axis at x between the pixels bottom and top, labels right-aligned left of it, light
      # grid lines to grid_right.
      def y_axis(axis, x:, top:, bottom:, grid_right: nil)
        parts = axis.ticks.flat_map do |t|
          y = place(axis, t, bottom, top)
          [(grid_right ? %(<line x1="#{r(x)}" x2="#{r(grid_right)}" y1="#{r(y)}" y2="#{r(y)}" stroke="#e4e4e4"/>) : ""),
            %(<text class="tick" x="#{r(x - 6)}" y="#{r(y + 4)}" text-anchor="end" fill="#555">#{esc(Format.tick(t, axis.unit))}</text>)]
        end
        axis_group("y", axis, [%(<line x1="#{r(x)}" x2="#{r(x)}" y1="#{r(top)}" y2="#{r(bottom)}" stroke="#888"/>), *parts])
      end

      # Room a y axis needs on its left for its longest tick label.
      def y_axis_room(axis) = (axis.ticks.map { |t| text_width(Format.tick(t, axis.unit)) }.max || 0) + 14

      def axis_group(dimension, axis, parts)
        %(<g class="axis axis-#{dimension}" data-min="#{axis.min}" data-max="#{axis.max}" data-log="#{axis.log}">#{parts.join}</g>)
      end

      # A small legend swatch (HTML inline SVG): a line in the style's dash with its marker.
      def swatch(style, line: true)
        dash = style.line ? %( stroke-dasharray="#{style.line}") : ""
        stroke = line ? %(<line x1="1" x2="27" y1="8" y2="8" stroke="#{style.color}" stroke-width="2"#{dash}/>) : ""
        %(<svg class="swatch" width="28" height="16" viewBox="0 0 28 16" aria-hidden="true">#{stroke}) +
          "#{marker(style.shape, 14, 8, size: 4.5, color: style.color, filled: style.filled != false, css: "swatch-mark")}</svg>"
      end
    end
  end
end
