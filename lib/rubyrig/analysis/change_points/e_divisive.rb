# E-divisive means (Matteson & James 2014) on one series of values: the split that maximizes the
# energy distance between the values before and after it, kept while a permutation test finds it
# significant, then the same within the segments, one change point at a time.
#
# For a segment x with a split after m values (n - m after): the divergence is
#   Q = m (n - m) / n * (2 B / (m (n - m)) - W_left / C(m, 2) - W_right / C(n - m, 2))
# where B sums |x_i - x_j| across the split and W_left, W_right within each side (exponent 1 of the
# paper; a side of one value has no within term). The best split of the series is the largest Q over
# every segment between the change points found so far. Its p-value is (k + 1) / (R + 1), k being the
# number of R permutations, each shuffling the values within every segment, whose largest Q is at
# least the observed one. Under no change the values of a segment are exchangeable and the first
# test rejects with chance at most alpha.
module Rubyrig
  class Analysis
    module ChangePoints
      module EDivisive
        # One change point found: the index of the first value of the new level, the permutation p-value.
        Candidate = Struct.new(:index, :p_value, keyword_init: true)

        module_function

        # values: Floats in series order; alpha: each permutation test's level; permutations: R; rng: a
        # Random (the caller's seed); min_size: the fewest values on each side of a split.
        # Returns [Candidate, ...] in the order found (most significant first).
        def candidates(values, alpha:, permutations:, rng:, min_size:)
          bounds = [0, values.size]
          found = []
          loop do
            best = best_split(values, bounds, min_size)
            break if best.nil?
            p_value = permutation_p(values, bounds, min_size, best.last, permutations, rng, alpha)
            break if p_value > alpha
            found << Candidate.new(index: best.first, p_value: p_value).freeze
            bounds = (bounds + [best.first]).sort
          end
          found.freeze
        end

        # [index, q] of the largest divergence over the segments between bounds; nil when no segment has
        # room for a split.
        def best_split(values, bounds, min_size)
          bounds.each_cons(2).filter_map do |from, to|
            index, q = segment_best(values[from...to], min_size)
            [from + index, q] if index
          end.max_by(&:last)
        end

        # The permutation p-value of the observed largest divergence. The shuffles stop once the p-value
        # exceeds alpha whatever the rest would give (that candidate is not kept, so its p-value is not
        # needed exactly); a kept candidate's p-value counts all of them.
        def permutation_p(values, bounds, min_size, observed, permutations, rng, alpha)
          segments = bounds.each_cons(2).map { |from, to| values[from...to] }
          exceed = 0
          permutations.times do
            exceed += 1 if segments.filter_map { |segment| segment_best(segment.shuffle(random: rng), min_size).last }.max >= observed
            break if (exceed + 1).fdiv(permutations + 1) > alpha
          end
          (exceed + 1).fdiv(permutations + 1)
        end

        # [split, q] of the best split of one segment (split: the first index after it); [nil, nil] when
        # the segment is shorter than two sides of min_size. One pass over the pairs gives each value's
        # distances to all others (row) and to those before it (to_left); then each value moves from the
        # right side to the left in turn.
        def segment_best(x, min_size)
          n = x.size
          return [nil, nil] if n < 2 * min_size
          to_left, row, total = distances(x)
          scan(n, to_left, row, total, min_size)
        end

        # [to_left, row, total]: each value's summed distance to the values before it and to all the
        # others, and the sum over all pairs. The innermost loop of every permutation, written out.
        def distances(x)
          n = x.size
          to_left = Array.new(n, 0.0)
          row = Array.new(n, 0.0)
          total = 0.0
          j = 1
          while j < n
            xj = x[j]
            sum = 0.0
            i = 0
            while i < j
              d = xj - x[i]
              d = -d if d < 0
              sum += d
              row[i] += d
              i += 1
            end
            to_left[j] = sum
            row[j] += sum
            total += sum
            j += 1
          end
          [to_left, row, total]
        end

        def scan(n, to_left, row, within_right, min_size)
          within_left = across = 0.0
          best = [nil, -Float::INFINITY]
          (1..n - min_size).each do |m|
            left = to_left[m - 1]
            right = row[m - 1] - left
            within_left += left
            within_right -= right
            across += right - left
            next if m < min_size
            q = divergence(m, n - m, across, within_left, within_right)
            best = [m, q] if q > best.last
          end
          best
        end

        def divergence(m, k, across, within_left, within_right)
          left = (m > 1) ? within_left / (m * (m - 1) / 2.0) : 0.0
          right = (k > 1) ? within_right / (k * (k - 1) / 2.0) : 0.0
          m * k / (m + k).to_f * (2 * across / (m * k) - left - right)
        end
      end
    end
  end
end
