# Small inline-SVG charts for the HTML report, with no scripts or outside files: a strip chart of
# per-batch values, a forest plot of ratios with their confidence intervals, and a line chart for sweeps.
require "cgi"

module Rubyrig
  module Reporters
    module Svg
      PALETTE = %w[#4c78a8 #f58518 #54a24b #e45756 #72b7b2 #b279a2 #ff9da6 #9d755d #bab0ac #eeca3b].freeze
      WIDTH = 640

      module_function

      def esc(text) = CGI.escapeHTML(text.to_s)

      # rows: [[label, [values...], median], ...]; one horizontal lane per row, a dot per batch, a tick at the median.
      def strip(rows, unit:)
        values = rows.flat_map { |row| row[1] }
        return "" if values.empty?
        lo, hi = padded_range(values)
        left = 190
        lane = 28
        height = rows.size * lane + 34
        x = ->(v) { left + (v - lo) / (hi - lo) * (WIDTH - left - 20) }
        parts = rows.each_with_index.flat_map do |(label, list, median), i|
          y = 14 + i * lane + lane / 2
          color = PALETTE[i % PALETTE.size]
          dots = list.map { |v| %(<circle cx="#{x.call(v).round(1)}" cy="#{y}" r="4" fill="#{color}" fill-opacity="0.7"><title>#{esc(Format.value(v, unit))}</title></circle>) }
          [%(<text x="#{left - 8}" y="#{y + 4}" text-anchor="end">#{esc(label[0, 28])}</text>),
            %(<line x1="#{left}" x2="#{WIDTH - 20}" y1="#{y}" y2="#{y}" stroke="#eee"/>),
            *dots,
            (median ? %(<line x1="#{x.call(median).round(1)}" x2="#{x.call(median).round(1)}" y1="#{y - 9}" y2="#{y + 9}" stroke="#222" stroke-width="2"/>) : "")]
        end
        axis = axis_labels(lo, hi, left, height - 6, x, unit)
        svg(height, parts + axis)
      end

      # rows: [[label, ratio, [lo, hi], verdict], ...] drawn on a log scale around 1.0.
      def forest(rows)
        rows = rows.reject { |r| r[1].nil? }
        return "" if rows.empty?
        points = rows.flat_map { |r| [r[1], *(r[2] || [])] }.select(&:positive?)
        lo = [points.min, 1.0].min * 0.97
        hi = [points.max, 1.0].max * 1.03
        left = 300
        lane = 26
        height = rows.size * lane + 50
        x = ->(v) { left + (Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo)) * (WIDTH - left - 20) }
        parts = [%(<line x1="#{x.call(1.0).round(1)}" x2="#{x.call(1.0).round(1)}" y1="18" y2="#{height - 22}" stroke="#999" stroke-dasharray="4 3"/>),
          %(<text x="#{x.call(1.0).round(1)}" y="12" text-anchor="middle" fill="#666">baseline</text>)]
        rows.each_with_index do |(label, ratio, ci, verdict), i|
          y = 26 + i * lane + lane / 2
          color = {"faster" => "#2a9d45", "slower" => "#d1495b", "higher" => "#d08c00", "lower" => "#2a9d45"}.fetch(verdict, "#777")
          parts << %(<text x="#{left - 8}" y="#{y + 4}" text-anchor="end">#{esc(label[0, 48])}</text>)
          parts << %(<line x1="#{x.call(ci[0]).round(1)}" x2="#{x.call(ci[1]).round(1)}" y1="#{y}" y2="#{y}" stroke="#{color}" stroke-width="2"/>) if ci
          parts << %(<circle cx="#{x.call(ratio).round(1)}" cy="#{y}" r="5" fill="#{color}"><title>#{esc(format("%.3fx %s", ratio, verdict))}</title></circle>)
        end
        parts << %(<text x="#{x.call(1.0).round(1)}" y="#{height - 6}" text-anchor="middle">1.00x</text>) if x.call(1.0) - left > 40 && WIDTH - 20 - x.call(1.0) > 40
        parts << %(<text x="#{left}" y="#{height - 6}">#{format("%.2fx", lo)}</text>)
        parts << %(<text x="#{WIDTH - 20}" y="#{height - 6}" text-anchor="end">#{format("%.2fx", hi)}</text>)
        svg(height, parts)
      end

      # series: {label => [[x, y], ...]}; x are the swept values in order, drawn evenly spaced.
      def lines(series, xs:, unit:)
        ys = series.values.flatten(1).map(&:last).compact
        return "" if ys.empty?
        lo, hi = padded_range(ys + [0.0])
        left = 70
        height = 220
        step = (WIDTH - left - 150) / [xs.size - 1, 1].max.to_f
        px = ->(v) { left + xs.index(v) * step }
        py = ->(v) { 12 + (hi - v) / (hi - lo) * (height - 44) }
        parts = xs.map { |v| %(<text x="#{px.call(v).round(1)}" y="#{height - 8}" text-anchor="middle">#{esc(v)}</text>) }
        parts << %(<text x="8" y="#{py.call(hi).round(1) + 4}">#{esc(Format.value(hi, unit))}</text>)
        parts << %(<text x="8" y="#{py.call(lo).round(1)}">#{esc(Format.value(lo, unit))}</text>)
        series.each_with_index do |(label, pts), i|
          color = PALETTE[i % PALETTE.size]
          pts = pts.reject { |pt| pt[1].nil? }
          coords = pts.map { |vx, vy| "#{px.call(vx).round(1)},#{py.call(vy).round(1)}" }
          parts << %(<polyline points="#{coords.join(" ")}" fill="none" stroke="#{color}" stroke-width="2"/>)
          pts.each { |vx, vy| parts << %(<circle cx="#{px.call(vx).round(1)}" cy="#{py.call(vy).round(1)}" r="3.5" fill="#{color}"><title>#{esc(Format.value(vy, unit))}</title></circle>) }
          parts << %(<text x="#{WIDTH - 140}" y="#{20 + i * 16}" fill="#{color}">#{esc(label[0, 22])}</text>)
        end
        svg(height, parts)
      end

      def padded_range(values)
        lo = values.min.to_f
        hi = values.max.to_f
        pad = (hi - lo).abs * 0.08
        pad = [hi.abs * 0.05, 1e-9].max if pad.zero?
        [lo - pad, hi + pad]
      end

      def axis_labels(lo, hi, left, y, x, unit)
        [lo, (lo + hi) / 2, hi].map.with_index do |v, i|
          anchor = %w[start middle end][i]
          xpos = (i == 0) ? left : x.call(v).round(1)
          %(<text x="#{xpos}" y="#{y}" text-anchor="#{anchor}" fill="#666">#{esc(Format.value(v, unit))}</text>)
        end
      end

      def svg(height, parts)
        %(<svg xmlns="http://www.w3.org/2000/svg" width="#{WIDTH}" height="#{height}" viewBox="0 0 #{WIDTH} #{height}" font-size="12" font-family="system-ui, sans-serif">#{parts.join}</svg>)
      end
    end
  end
end
