# Number formatting shared by the human-readable reporters: units, ratios, intervals and p-values.
module Rubyrig
  module Reporters
    module Format
      module_function

      def value(number, unit)
        return "n/a" if number.nil?
        case unit
        when "s" then seconds(number)
        when "B" then bytes(number)
        when "1/s" then "#{significant(number)}/s"
        when "fraction" then percent(number)
        when "µs" then format("%.0f µs", number * 1e6)
        when "pp" then format("%+.1f pp", number * 100)
        else significant(number)
        end
      end

      # A section table's value as text by its column's unit (Analysis::Section). verdict: how the
      # format shows a verdict word; code: how it shows a name (a profile frame's).
      def cell(value, unit, verdict: ->(word) { word }, code: ->(name) { name })
        case unit
        when "text", "code", "path" then value.to_s
        when "params" then params(value.to_h)
        when "count" then value.nil? ? "n/a" : value.to_s
        when "share" then value ? "#{percent(value.share)} #{code.call(value.name)}" : ""
        when "ratio" then comparison_ratio(value)
        when "p" then value&.ratio ? p_value(value.p_adjusted) : ""
        when "verdict" then value ? verdict.call(value.verdict) : ""
        else estimate(value, unit, verdict)
        end
      end

      # A Comparison's ratio and interval, "n/a" when it has none, "" without a Comparison (a baseline).
      def comparison_ratio(c)
        return "" unless c
        c.ratio ? "#{ratio(c.ratio)} #{ci(c.ci)}" : "n/a"
      end

      # A number, or an Estimate: "40.00/s [39.50/s, 40.20/s]", and in a sweep its ratio, interval and verdict.
      def estimate(value, unit, verdict)
        return value(value, unit) unless value.is_a?(Analysis::Section::Estimate)
        text = with_interval(value.value, value.ci, unit)
        c = value.comparison
        c&.ratio ? "#{text} #{ratio(c.ratio)} #{ci(c.ci)} #{verdict.call(c.verdict)}" : text
      end

      def seconds(s)
        return "n/a" if s.nil?
        if s >= 1 then "#{significant(s)} s"
        elsif s >= 1e-3 then "#{significant(s * 1e3)} ms"
        else "#{significant(s * 1e6)} µs"
        end
      end

      def bytes(b)
        return "n/a" if b.nil?
        units = %w[B KiB MiB GiB TiB]
        exp = b.positive? ? [(Math.log(b) / Math.log(1024)).floor, units.size - 1].min : 0
        exp = 0 if exp.negative?
        "#{significant(b / 1024.0**exp)} #{units[exp]}"
      end

      # Four significant digits, without exponent notation for everyday magnitudes.
      def significant(x)
        return "n/a" if x.nil?
        return x.to_s if x.is_a?(Integer) && x.abs < 100_000
        return "0" if x.zero?
        digits = [3 - Math.log10(x.abs).floor, 0].max
        format("%.#{digits}f", x)
      end

      # A value as an axis tick shows it: its unit, without trailing zeros ("100 ms", "1.5x", "26 MiB").
      def tick(number, unit)
        return "0" if number.to_f.zero?
        text = (unit == "x") ? "#{significant(number.to_f)}x" : value(number.to_f, unit)
        text.sub(/\A(-?\d+)\.0+(?!\d)/, '\1').sub(/\A(-?\d+\.\d*?[1-9])0+(?!\d)/, '\1')
      end

      # A value with its 95% interval when there is one: "12.00/s [11.80/s, 12.10/s]".
      def with_interval(number, pair, unit)
        pair ? "#{value(number, unit)} [#{value(pair[0], unit)}, #{value(pair[1], unit)}]" : value(number, unit)
      end

      def ratio(r) = r.nil? ? "n/a" : "#{ratio_number(r)}x"

      def ci(pair) = pair.nil? ? "n/a" : "[#{ratio_number(pair[0])}, #{ratio_number(pair[1])}]"

      def ratio_number(r) = Analysis::RatioText.number(r)

      def percent(fraction) = fraction.nil? ? "n/a" : format("%.1f%%", fraction * 100)

      def p_value(p)
        return "n/a" if p.nil?
        (p < 0.001) ? "<0.001" : format("%.3f", p)
      end

      def params(hash) = Analysis::Section.params_text(hash)

      # One host's side of a comparison: "1.102x [1.050, 1.160]", or why the host was left out.
      def host_ratio(stratum) = stratum.used? ? "#{ratio(stratum.ratio)} #{ci(stratum.ci)}" : stratum.reason

      # "hosts agree (Cochran's Q 0.02 on 1 df, p=0.905 corrected)", with the odd host when they disagree.
      def heterogeneity(h)
        return "hosts not tested for agreement (a host's batches do not vary)" if h.nil?
        text = format("hosts %s (Cochran's Q %.2f on %d df, p=%s corrected)", h.disagree ? "disagree" : "agree", h.q, h.df, p_value(h.p_adjusted))
        return text unless h.disagree
        text + ((h.odd_hosts.size == 1) ? "; odd host: #{h.odd_hosts.first}" : "; each host's ratio counts, not the combined one")
      end
    end
  end
end
