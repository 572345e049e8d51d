# Which factors the data decide for one difference, in the vocabulary of docs/why.md (gvl, cpu_user,
# cpu_sys, context_switches, gc, jit, yjit_code_region, ruby_heap, malloc):
# - an additive component is named when the interval of its share lies above MIN_SHARE: it moved the
#   same way as the cost and accounts for at least half of the difference, decided;
# - CPU user is the catch-all (GC, YJIT compile time and what the threads waiting for the GVL waited
#   for all show in it), so it is named only when no more specific component is; between runtimes that
#   differ in YJIT it is named `jit` (user time under YJIT);
# - context switches, which do not add up to the cost, are named only when nothing additive is and
#   their count per unit of work is decided to move the same way as the cost.
# Nothing else is ever named: an empty list means no measured factor accounts for the difference.
module Rubyrig
  class Analysis
    module Why
      module Factors
        CATCH_ALL = "cpu_user_s"

        module_function

        # parts: the difference's Parts; comparison: the primary one; yjit_differs: YJIT is on for one
        # runtime only. Returns [[factor word, Part], ...] of the factors named, frozen.
        def chosen(parts, comparison, yjit_differs:)
          decided = parts.select { |p| p.component.additive && decided?(p) }
          specific = decided.reject { |p| p.name == CATCH_ALL }
          list = (specific.empty? ? decided : specific).map { |p| [(p.name == CATCH_ALL && yjit_differs) ? "jit" : p.component.factor, p] }
          list = parts.select { |p| !p.component.additive && switch?(p, comparison) }.map { |p| [p.component.factor, p] } if list.empty?
          list.map(&:freeze).freeze
        end

        def decided?(part) = !part.share_ci.nil? && part.share_ci.first >= MIN_SHARE

        # A count per unit decided to move the way the cost did.
        def switch?(part, comparison)
          c = part.comparison
          return false unless c&.significant? || [Verdict::APPEARED, Verdict::DISAPPEARED].include?(c&.verdict)
          costlier = comparison.verdict == Verdict::SLOWER || comparison.verdict == Verdict::HIGHER
          costlier == [Verdict::HIGHER, Verdict::APPEARED].include?(c.verdict)
        end
      end
    end
  end
end
