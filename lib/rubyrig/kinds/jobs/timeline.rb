# When jobs finished, read one time at a time, in bounded memory, to count the jobs finished in each
# slice of a drain: every time until EXACT_LIMIT (exact counts), then counts in at most MAX_BINS equal
# bins from the earliest time kept, each twice as wide whenever a time falls past the last one. A bin
# then goes whole to the slice that holds its middle, so a slice's count can be off by the jobs of one
# bin at each edge: with 100 slices, a slice spans at least 20 bins.
module Rubyrig
  module Kinds
    module Jobs
      class Timeline
        EXACT_LIMIT = 10_000
        MAX_BINS = 4096

        def initialize
          @times = []
          @counts = nil
        end

        def <<(at)
          if @counts
            bin(at)
          else
            @times << at
            spill if @times.size > EXACT_LIMIT
          end
          self
        end

        # Jobs finished in each of `slices` equal slices from `since` to `last` (seconds).
        def counts(since, last, slices)
          width = (last - since) / slices
          result = Array.new(slices, 0)
          slice = ->(at) { ((at - since) / width).floor.clamp(0, slices - 1) }
          if @counts
            @counts.each_with_index { |count, i| result[slice.call(@origin + (i + 0.5) * @width)] += count unless count.zero? }
          else
            @times.each { |at| result[slice.call(at)] += 1 }
          end
          result
        end

        private

        def spill
          @origin, last = @times.minmax
          @width = [(last - @origin) / (MAX_BINS / 2), 1e-6].max
          @counts = Array.new(MAX_BINS, 0)
          @times.each { |at| bin(at) }
          @times = nil
        end

        def bin(at)
          index = ((at - @origin) / @width).floor
          while index >= MAX_BINS
            @counts = @counts.each_slice(2).map(&:sum) + Array.new(MAX_BINS / 2, 0)
            @width *= 2
            index = ((at - @origin) / @width).floor
          end
          @counts[[index, 0].max] += 1
        end
      end
    end
  end
end
