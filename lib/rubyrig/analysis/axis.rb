# One axis of a picture, chosen in the analysis so that every format agrees on it: its range, whether
# it is logarithmic, and its ticks. Every metric rubyrig measures is a rate, a time, a size, a count, a
# fraction or a ratio, so no axis goes below zero; values that span more than SPAN_FOR_LOG times get
# a log scale. Pure.
module Rubyrig
  class Analysis
    Axis = Struct.new(:min, :max, :log, :ticks, :unit, keyword_init: true) do
      # Where a value lies along the axis, from 0.0 (min) to 1.0 (max).
      def fraction(value)
        return (Math.log(value) - Math.log(min)) / (Math.log(max) - Math.log(min)) if log
        (value - min) / (max - min)
      end
    end

    class Axis
      SPAN_FOR_LOG = 4.0
      TARGET_TICKS = 5

      # values: the numbers the axis must show (nils ignored). zero: start at zero (bars, counts).
      # log: true or false to force the scale, nil to decide by the span. integer: whole ticks only
      # (counts). Returns nil without values.
      def self.fit(values, unit:, zero: false, log: nil, integer: false)
        values = values.compact.map(&:to_f).select(&:finite?)
        return nil if values.empty?
        positive = values.all?(&:positive?)
        log = positive && !zero && values.max / values.min > SPAN_FOR_LOG if log.nil?
        return logarithmic(values, unit) if log && positive
        # Bytes step in KiB, MiB or GiB, so that ticks read 24 MiB rather than 25.17 MB.
        scale = (unit == "B" && values.max >= 1024) ? 1024**(Math.log(values.max) / Math.log(1024)).floor : 1
        axis = linear(values.map { |v| v / scale }, unit, zero, integer)
        return axis if scale == 1
        new(min: axis.min * scale, max: axis.max * scale, log: false, ticks: axis.ticks.map { |t| t * scale }, unit: unit).freeze
      end

      def self.linear(values, unit, zero, integer = false)
        lo = zero ? 0.0 : values.min
        hi = values.max
        if zero
          # Bars from zero need room above only when there is nothing to show.
          hi = 1.0 if hi <= 0
        else
          pad = (hi - lo) * 0.05
          pad = hi.zero? ? 1.0 : hi.abs * 0.05 if pad.zero?
          lo = [lo - pad, 0.0].max
          hi += pad
        end
        step = nice_step((hi - lo) / TARGET_TICKS)
        step = [step.ceil, 1].max.to_f if integer
        lo = (lo / step).floor * step
        hi = (hi / step).ceil * step
        ticks = (0..((hi - lo) / step).round).map { |i| clean(lo + i * step, step) }
        new(min: ticks.first, max: ticks.last, log: false, ticks: ticks, unit: unit).freeze
      end

      # Ticks at 1, 2 and 5 of each decade over a wide span; over a narrow one (less than 10x), evenly
      # stepped values placed on the log scale.
      def self.logarithmic(values, unit)
        lo = values.min / 1.08
        hi = values.max * 1.08
        ticks = if hi / lo >= 10
          decades = (Math.log10(lo).floor..Math.log10(hi).ceil).flat_map { |e| [1, 2, 5].map { |m| m * 10.0**e } }
          inside = decades.select { |t| t.between?(lo, hi) }
          (inside.size > 8) ? inside.select { |t| Math.log10(t) == Math.log10(t).round } : inside
        else
          step = nice_step((hi - lo) / TARGET_TICKS)
          ((lo / step).ceil..(hi / step).floor).map { |i| clean(i * step, step) }.select(&:positive?)
        end
        new(min: lo, max: hi, log: true, ticks: ticks.map { |t| clean(t, t) }, unit: unit).freeze
      end

      # 1, 2, 2.5 or 5 times a power of ten, at least `raw`.
      def self.nice_step(raw)
        return 1.0 unless raw.positive?
        power = 10.0**Math.log10(raw).floor
        [1, 2, 2.5, 5, 10].map { |m| m * power }.find { |s| s >= raw * (1 - 1e-9) }
      end

      # Rounds away float noise (0.30000000000000004) at the step's precision.
      def self.clean(value, step)
        digits = [-Math.log10(step.abs).floor + 2, 0].max
        value.round(digits).to_f
      end

      private_class_method :linear, :logarithmic, :clean
    end
  end
end
