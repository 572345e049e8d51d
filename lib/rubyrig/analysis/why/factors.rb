# Which factors the data decide for one difference, in the vocabulary of docs/why.md (gvl, cpu_user,
# cpu_sys, context_switches, gc, jit, yjit_code_region, ruby_heap, malloc):
# - an additive component is named when its comparison is decided to move the way the cost moved
#   (higher or appeared for a costlier runtime, lower or disappeared for a cheaper one), the interval
#   of its share lies above 0 (it accounts for part of the difference, decided) and its share is at
#   least MIN_SHARE (the best estimate is that it accounts for half of it or more);
# - CPU user is the catch-all (GC, YJIT compile time and the work of the threads the others waited
#   for all show in it), so it is named only when no more specific component is; between runtimes that
#   differ in YJIT it is named `jit` (user time under YJIT);
# - context switches, which do not add up to the cost, are named only when nothing additive is and
#   their count per unit of work is decided to move the way the cost moved.
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
          decided = parts.select { |p| p.component.additive && decided?(p, comparison) }
          specific = decided.reject { |p| p.name == CATCH_ALL }
          list = (specific.empty? ? decided : specific).map { |p| [(p.name == CATCH_ALL && yjit_differs) ? "jit" : p.component.factor, p] }
          list = parts.select { |p| !p.component.additive && moved?(p, comparison) }.map { |p| [p.component.factor, p] } if list.empty?
          list.map(&:freeze).freeze
        end

        def decided?(part, comparison)
          ci = part.share_ci
          !ci.nil? && ci.first > 0 && part.share >= MIN_SHARE && moved?(part, comparison)
        end

        # A component per unit decided to move the way the cost did.
        def moved?(part, comparison)
          c = part.comparison
          return false unless c&.significant? || [Verdict::APPEARED, Verdict::DISAPPEARED].include?(c&.verdict)
          costlier = [Verdict::SLOWER, Verdict::HIGHER].include?(comparison.verdict)
          costlier == [Verdict::HIGHER, Verdict::APPEARED].include?(c.verdict)
        end
      end
    end
  end
end
