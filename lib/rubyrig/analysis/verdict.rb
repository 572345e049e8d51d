# The words a comparison concludes with, and which one a significant change of a metric earns: speed
# metrics are faster or slower (whichever way is better), others higher or lower.
module Rubyrig
  class Analysis
    module Verdict
      FASTER = "faster"
      SLOWER = "slower"
      HIGHER = "higher"
      LOWER = "lower"
      # The interval lies inside the equivalence margin around 1.0.
      EQUIVALENT = "equivalent"
      # Neither a difference nor equivalence can be claimed.
      INCONCLUSIVE = "inconclusive"
      NO_DIFFERENCE = "no significant difference"
      # Not compared at all (e.g. a zero rate): the reason says why.
      NOT_COMPARED = "not compared"

      SIGNIFICANT = [FASTER, SLOWER, HIGHER, LOWER].freeze
      ALL = [*SIGNIFICANT, EQUIVALENT, INCONCLUSIVE, NO_DIFFERENCE, NOT_COMPARED].freeze
      # The equivalence band drawn around 1.0 when a comparison carries no margin of its own.
      DEFAULT_MARGIN = 0.02

      module_function

      # direction: :higher, :lower or :same (the other side against the reference, as numbers).
      def word(direction, definition)
        return NO_DIFFERENCE if direction == :same
        return direction.to_s unless definition.speed?
        ((direction == :higher) == definition.higher_is_better) ? FASTER : SLOWER
      end

      def significant?(word) = SIGNIFICANT.include?(word)
    end
  end
end
