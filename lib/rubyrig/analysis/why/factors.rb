# Which factors the data decide for one difference, in the vocabulary of docs/why.md (gvl, cpu_user,
# cpu_sys, context_switches, gc, jit, yjit_code_region, ruby_heap, malloc). An additive component is a
# candidate when
# - it accounts for at least MIN_COST_SHARE of the cost's difference (its share's estimate, so it
#   moved the way the cost did), and
# - its change is at least MIN_SHARE of the measured change: the sum of the absolute differences of
#   the components that do not hold one another (CPU user, CPU sys and GVL wait; YJIT's code region
#   and allocations, the Ruby heap and the rest of RSS). On a busy host the wall time per unit also
#   holds the time spent waiting for a CPU, so a CPU component that causes the whole difference
#   accounts for less than all of the wall time's; among the measured components it still dominates.
# A candidate is named when its share's interval (Share: Fieller's, at the difference's confidence
# corrected over the components) lies wholly above 0; a candidate that is not is the one that leads
# (the largest share), said with about how many batches would decide it. CPU user is the catch-all
# (GC, YJIT compile time and the work of the threads the others waited for all show in it), so it is
# named only when no more specific component is, and leads only when no more specific component is a
# candidate; between runtimes that differ in YJIT it is `jit` (user time under YJIT). Context switches are counted, not timed: they never
# account for a cost, so they are never named; when no component leads, those decided to move the way
# the cost moved are observations the line reports beside "no measured factor".
module Rubyrig
  class Analysis
    module Why
      module Factors
        CATCH_ALL = "cpu_user_s"
        # The components whose differences add up to the measured change (GC and compile time are in CPU user).
        DISJOINT = %w[cpu_user_s cpu_sys_s gvl_wait_s yjit_code_region_bytes yjit_alloc_bytes ruby_heap_bytes other_rss_bytes].freeze

        module_function

        # parts: the difference's Parts; yjit_differs: YJIT is on for one runtime only. Returns
        # [[factor word, Part], ...] of the factors named, frozen; empty when none is decided.
        def chosen(parts, yjit_differs:)
          decided = candidates(parts).select { |p| p.estimate.positive? }
          words(preferred(decided), yjit_differs)
        end

        # The [factor word, Part] that leads when none is named: the candidate with the largest share,
        # or nil when no component is a candidate (no measured factor accounts for the difference).
        def leading(parts, yjit_differs:)
          words([preferred(candidates(parts)).max_by(&:share)].compact, yjit_differs).first
        end

        # The counted components (context switches) decided to move the way the cost moved, frozen.
        def observed(parts, comparison)
          parts.select { |p| !p.component.additive && moved?(p, comparison) }.freeze
        end

        # The additive components large enough to account for the difference, decided or not.
        def candidates(parts)
          measured = parts.select { |p| DISJOINT.include?(p.name) && p.estimate }.sum { |p| p.estimate.difference.abs }
          parts.select do |p|
            p.component.additive && !p.share.nil? && p.share >= MIN_COST_SHARE && p.estimate.difference.abs >= MIN_SHARE * measured
          end
        end

        # The specific components among these, or CPU user (the catch-all) when there is none.
        def preferred(parts)
          specific = parts.reject { |p| p.name == CATCH_ALL }
          specific.empty? ? parts : specific
        end

        def words(parts, yjit_differs)
          parts.map { |p| [(p.name == CATCH_ALL && yjit_differs) ? "jit" : p.component.factor, p].freeze }.freeze
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
