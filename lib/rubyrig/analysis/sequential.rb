# The schedule of looks for `--until decided`: the batch counts at which a sequential run may stop.
#
# A run adds interleaved rounds (one batch of every cell each) and, at each scheduled look, decides
# every primary comparison with Inference.family(..., looks: k). It stops at the first look where every
# one is decided (:higher, :lower or :equivalent), or at max_batches (the last look), or when the
# runner's time limit is reached. Looks happen at fixed round counts chosen before the run, never at
# times chosen from the data, and alpha is split evenly over all k planned looks (Bonferroni), so
# every interval at every look is simultaneously valid: stopping early, or looking at any look's
# verdict, cannot raise the chance of a wrong verdict above alpha. The reports of a sequential run,
# also when rebuilt later, must keep passing looks: k.
#
# Looks start at min_batches and grow by about half each time (3, 5, 8, 12, 18, 27, 41, ...),
# always ending with max_batches: the per-look alpha then falls only with the logarithm of
# max_batches / min_batches, while a clear difference is still called after a few batches.
#
# API:
#   Sequential.new(min_batches: 3, max_batches: 30, growth: 1.5)  (frozen)
#   #looks -> [Integer] ascending, #k -> looks.size (the `looks:` of Inference.family),
#   #look?(n), #next_look(n) -> the first look after n or nil,
#   #stop?(n, results) -> true at max_batches, or at a look where every result is decided.
module Rubyrig
  class Analysis
    class Sequential
      attr_reader :min_batches, :max_batches, :looks

      def initialize(min_batches: 3, max_batches: 30, growth: 1.5)
        unless min_batches.is_a?(Integer) && min_batches >= Inference::MIN_BATCHES
          raise ArgumentError, "min_batches must be an Integer of at least #{Inference::MIN_BATCHES}, got #{min_batches.inspect}"
        end
        unless max_batches.is_a?(Integer) && max_batches >= min_batches
          raise ArgumentError, "max_batches must be an Integer of at least min_batches (#{min_batches}), got #{max_batches.inspect}"
        end
        raise ArgumentError, "growth must be above 1, got #{growth.inspect}" unless growth.is_a?(Numeric) && growth > 1
        @min_batches = min_batches
        @max_batches = max_batches
        @looks = schedule(growth).freeze
        freeze
      end

      def k = looks.size

      def look?(n) = looks.include?(n)

      def next_look(n) = looks.find { |look| look > n }

      def stop?(n, results)
        return true if n >= max_batches
        look?(n) && results.all?(&:decided?)
      end

      private

      def schedule(growth)
        list = [min_batches]
        loop do
          following = [(list.last * growth).ceil, list.last + 1].max
          break if following >= max_batches
          list << following
        end
        list << max_batches unless list.last == max_batches
        list
      end
    end
  end
end
