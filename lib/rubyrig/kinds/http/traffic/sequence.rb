# A batch's order of weighted items (requests or sessions): smooth weighted round-robin, so that every
# stretch of the order, from any place, holds each item in its weight's proportion to within one (the
# mix a generator sends is the one asked for however many requests it sends, and wherever each of its
# threads starts); the placeholders are what the batch's seeded generator fills in.
module Rubyrig
  module Kinds
    module Http
      class Traffic
        module Sequence
          module_function

          # items: objects with a weight; the list of `size` items, each step taking the item furthest
          # behind its share.
          def weighted(items, size)
            total = items.sum(&:weight).to_f
            credit = Array.new(items.size, 0.0)
            Array.new(size) do
              items.each_with_index { |item, i| credit[i] += item.weight }
              best = credit.each_index.max_by { |i| [credit[i], -i] }
              credit[best] -= total
              items[best]
            end
          end
        end
      end
    end
  end
end
