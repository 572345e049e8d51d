# A distribution of durations read one value at a time, in bounded memory: every value until it holds
# EXACT_LIMIT of them, so that a percentile is exactly Stats.percentile's, then a histogram of
# log-spaced bins 1/64 of an octave wide (about 1.1%), whose percentile is the middle of the bin that
# holds it: within 0.55% of the exact value however many values come. A value of 0 or less (a job
# that started in the nanosecond it was pushed) counts as 0.
module Rubyrig
  module Kinds
    module Jobs
      class Distribution
        EXACT_LIMIT = 10_000
        BINS_PER_OCTAVE = 64
        ZERO = -Float::INFINITY

        attr_reader :size

        def initialize
          @values = []
          @bins = nil
          @size = 0
        end

        def <<(value)
          @size += 1
          if @bins
            bin(value)
          else
            @values << value
            spill if @values.size > EXACT_LIMIT
          end
          self
        end

        def empty? = @size.zero?

        # The pct-th percentile (0-100), interpolated between ranks like Stats.percentile while the
        # values are kept; nil when there are none.
        def percentile(pct)
          return nil if empty?
          return Stats.percentile(@values, pct) unless @bins
          rank = (pct / 100.0 * (@size - 1)).round
          seen = 0
          @bins.keys.sort.each do |index|
            seen += @bins[index]
            return value_of(index) if seen > rank
          end
        end

        private

        # From now on, counts per bin instead of values.
        def spill
          @bins = Hash.new(0)
          @values.each { |value| bin(value) }
          @values = nil
        end

        def bin(value)
          index = value.positive? ? (Math.log2(value) * BINS_PER_OCTAVE).floor : ZERO
          @bins[index] += 1
        end

        def value_of(index) = (index == ZERO) ? 0.0 : 2**((index + 0.5) / BINS_PER_OCTAVE)
      end
    end
  end
end
