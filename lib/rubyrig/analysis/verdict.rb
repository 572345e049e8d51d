# The words a comparison concludes with: a significant change of a speed metric is faster or slower
# (whichever way is better), of any other metric higher or lower; equivalent when the whole interval
# lies within the equivalence margin; inconclusive when neither; appeared or disappeared when a metric
# is 0 in every batch on one side and not on the other (the reason has the counts); not compared when
# there was nothing valid to test (the reason says why).
module Rubyrig
  class Analysis
    module Verdict
      FASTER = "faster"
      SLOWER = "slower"
      HIGHER = "higher"
      LOWER = "lower"
      EQUIVALENT = "equivalent"
      INCONCLUSIVE = "inconclusive"
      NOT_COMPARED = "not compared"
      APPEARED = "appeared"
      DISAPPEARED = "disappeared"

      SIGNIFICANT = [FASTER, SLOWER, HIGHER, LOWER].freeze
      DECIDED = (SIGNIFICANT + [EQUIVALENT]).freeze
      ALL = (DECIDED + [APPEARED, DISAPPEARED, INCONCLUSIVE, NOT_COMPARED]).freeze

      module_function

      # decision: Inference's :higher, :lower, :equivalent, :inconclusive or :refused (other against
      # the reference, as numbers).
      def word(decision, definition)
        case decision
        when :equivalent then EQUIVALENT
        when :inconclusive then INCONCLUSIVE
        when :refused then NOT_COMPARED
        when :appeared then APPEARED
        when :disappeared then DISAPPEARED
        else
          return decision.to_s unless definition.speed?
          ((decision == :higher) == definition.higher_is_better) ? FASTER : SLOWER
        end
      end

      def significant?(word) = SIGNIFICANT.include?(word)

      def decided?(word) = DECIDED.include?(word)
    end
  end
end
