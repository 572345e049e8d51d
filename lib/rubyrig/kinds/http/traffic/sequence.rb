# A batch's order of weighted items (requests or sessions): each appears in its weight's proportion of
# `size`, rounded to whole items by largest remainder, shuffled by the batch's seeded generator, so that
# the mix a generator cycles through is the one asked for and the same in every batch of a round.
module Rubyrig
  module Kinds
    module Http
      class Traffic
        module Sequence
          module_function

          # items: objects with a weight; the list of `size` items in a seeded order.
          def weighted(items, size, random)
            total = items.sum(&:weight).to_f
            exact = items.map { |item| item.weight / total * size }
            counts = exact.map(&:floor)
            order = exact.each_with_index.sort_by { |x, i| [-(x - x.floor), i] }.map(&:last)
            (size - counts.sum).times { |k| counts[order[k]] += 1 }
            items.zip(counts).flat_map { |item, n| [item] * n }.shuffle(random: random)
          end
        end
      end
    end
  end
end
