# Which factors the data decide for one difference, in the vocabulary of docs/why.md (gvl, cpu_user,
# cpu_sys, context_switches, gc, jit, yjit_code_region, ruby_heap, malloc). An additive component is
# named when
# - its comparison is decided to move the way the cost moved (higher or appeared for a costlier
#   runtime, lower or disappeared for a cheaper one),
# - it accounts for at least MIN_COST_SHARE of the cost's difference (its share's estimate), and
# - its change is at least MIN_SHARE of the measured change: the sum of the absolute differences of
#   the components that do not hold one another (CPU user, CPU sys and GVL wait; YJIT's code region
#   and allocations, the Ruby heap and the rest of RSS). On a busy host the wall time per unit also holds the time spent waiting for a
#   CPU, so a CPU component that causes the whole difference accounts for less than all of the wall
#   time's; among the measured components it still dominates.
# CPU user is the catch-all (GC, YJIT compile time and the work of the threads the others waited for
# all show in it), so it is named only when no more specific component is; between runtimes that
# differ in YJIT it is named `jit` (user time under YJIT). Context switches are counted, not timed:
# they never account for a cost, so they are never named; when nothing additive is, those decided to
# move the way the cost moved are observations the line reports beside "no measured factor". An empty
# list means no measured factor accounts for the difference.
module Rubyrig
  class Analysis
    module Why
      module Factors
        CATCH_ALL = "cpu_user_s"
        # The components whose differences add up to the measured change (GC and compile time are in CPU user).
        DISJOINT = %w[cpu_user_s cpu_sys_s gvl_wait_s yjit_code_region_bytes yjit_alloc_bytes ruby_heap_bytes other_rss_bytes].freeze

        module_function

        # parts: the difference's Parts; comparison: the primary one; yjit_differs: YJIT is on for one
        # runtime only. Returns [[factor word, Part], ...] of the factors named, frozen.
        def chosen(parts, comparison, yjit_differs:)
          measured = parts.select { |p| DISJOINT.include?(p.name) && p.estimate }.sum { |p| p.estimate.difference.abs }
          decided = parts.select { |p| p.component.additive && decided?(p, comparison, measured) }
          specific = decided.reject { |p| p.name == CATCH_ALL }
          list = (specific.empty? ? decided : specific).map { |p| [(p.name == CATCH_ALL && yjit_differs) ? "jit" : p.component.factor, p] }
          list.map(&:freeze).freeze
        end

        # The counted components (context switches) decided to move the way the cost moved, frozen.
        def observed(parts, comparison)
          parts.select { |p| !p.component.additive && moved?(p, comparison) }.freeze
        end

        # measured: the measured change, in the component's unit per unit of work.
        def decided?(part, comparison, measured)
          !part.share.nil? && part.share >= MIN_COST_SHARE && part.estimate.difference.abs >= MIN_SHARE * measured &&
            moved?(part, comparison)
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
