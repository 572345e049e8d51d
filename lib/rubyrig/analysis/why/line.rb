# The one line an app team reads for a difference, made only of figures the explanation holds (each
# printed by the formatters below, which the test that reads every number back from summary.json
# uses too): the verdict with its ratio and interval and the difference per unit of work; each named
# factor with its difference, ratio and share; or, when none is decided, the component that leads and
# about how many batches would decide it; or that no measured factor accounts for it; the same
# runtime in the neighbouring cells; and where GVL wait, YJIT's figures or the Ruby heap could not be
# measured (on one side, or on both when nothing was named).
module Rubyrig
  class Analysis
    module Why
      module Line
        # Factors whose absence on a runtime is said (the others go missing together with the wall time).
        NOTED = %w[gvl ruby_heap malloc].freeze
        NOTHING = "no measured factor accounts for it; try a profile: `--profile`"
        NOTHING_MEMORY = "no measured factor accounts for it"

        module_function

        def of(explanation)
          parts = [answer(explanation)] + explanation.neighbours.map { |c| neighbour(explanation, c) } + unmeasured(explanation)
          "#{head(explanation)}: #{parts.join("; ")}"
        end

        # The factors named; else the one that leads and what would decide it; else that none accounts for it.
        def answer(e)
          return e.reasons.map { |word, part| reason(e, word, part) }.join("; ") unless e.reasons.empty?
          return nothing(e) unless e.leading
          word, part = e.leading
          batches = part.estimate.batches
          decide = batches ? "about #{batches} batches per runtime would decide it" : "no practical number of batches would decide it"
          "no factor decided; #{reason(e, word, part, lead: " leads,")}; #{decide}"
        end

        # "no measured factor accounts for it", with the counts that moved with the cost, which are not
        # time and so account for none of it.
        def nothing(e)
          text = (e.metric == MEMORY_METRIC) ? NOTHING_MEMORY : NOTHING
          return text if e.observations.empty?
          counts = e.observations.map { |part| reason(e, part.component.factor, part) }.join(", ")
          text.sub("it;", "it (#{counts} moved with it, but they are counts, not time);")
        end

        def head(e)
          c = e.comparison
          label = Metrics.fetch(c.metric).label
          per = e.unit_word ? " per #{e.unit_word}" : ""
          "#{c.runtime} is #{c.verdict} than #{c.baseline}: #{label} #{ratio(c.ratio)} #{interval(c.ci)}, #{amount(e.difference, e.unit)}#{per}"
        end

        # lead: what follows the label of the component that leads.
        def reason(e, word, part, lead: "")
          label = ((word == "jit" && part.name == Factors::CATCH_ALL) ? "#{part.component.label} under YJIT" : part.component.label) + lead
          per = e.unit_word ? " per #{e.unit_word}" : ""
          c = part.comparison
          compared = c.ratio ? "#{ratio(c.ratio)} #{interval(c.ci)}" : c.verdict
          return "#{label} #{compared}#{per}" unless part.component.additive
          "#{label} #{amount(part.estimate.difference, Metrics.fetch(part.name).unit)}#{per} (#{compared}), #{share(part)}"
        end

        # "82% [59%, 105%] of the difference", or without the interval when it is unbounded.
        def share(part)
          return "#{percent(part.share)} #{percent_interval(part.share_ci)} of the difference" if part.share_ci
          "#{percent(part.share)} of the difference (its interval unbounded)"
        end

        # Only the parameter that differs: "at threads=1 in this run the gap is ...".
        def neighbour(e, c)
          differs = c.params.reject { |k, v| e.comparison.params[k] == v }
          "at #{Section.params_text(differs)} in this run the gap is #{ratio(c.ratio)} #{interval(c.ci)} (#{c.verdict})"
        end

        def unmeasured(e)
          missing = e.parts.reject(&:measured?).select { |p| (p.component.yjit || NOTED.include?(p.component.factor)) && (p.unmeasured.size == 1 || e.reasons.empty?) }
          missing.group_by(&:unmeasured).map do |runtimes, parts|
            needs = if parts.none? { |p| p.component.factor == "gvl" } then ""
            elsif parts.size == 1 then " (needs CRuby 3.2+)"
            else " (GVL wait needs CRuby 3.2+)"
            end
            "#{parts.map { |p| p.component.label }.join(", ")} not measured on #{runtimes.join(" and ")}#{needs}"
          end
        end

        def ratio(r) = "#{ratio_number(r)}x"

        def interval(pair) = "[#{ratio_number(pair[0])}, #{ratio_number(pair[1])}]"

        def ratio_number(r) = RatioText.number(r)

        def percent(share) = format("%.0f%%", share * 100)

        def percent_interval(pair) = "[#{percent(pair[0])}, #{percent(pair[1])}]"

        # A signed difference in its unit, three significant digits: "+52.3 ms", "-1.20 µs", "+250 MiB".
        def amount(value, unit)
          sign = value.negative? ? "-" : "+"
          magnitude = value.abs
          scaled, name = (unit == "B") ? bytes(magnitude) : seconds(magnitude)
          "#{sign}#{significant(scaled)} #{name}"
        end

        def seconds(s)
          return [s, "s"] if s >= 1
          return [s * 1e3, "ms"] if s >= 1e-3
          [s * 1e6, "µs"]
        end

        def bytes(b)
          units = %w[B KiB MiB GiB TiB]
          exp = b.positive? ? (Math.log(b) / Math.log(1024)).floor.clamp(0, units.size - 1) : 0
          [b / 1024.0**exp, units[exp]]
        end

        def significant(x)
          return "0" if x.zero?
          format("%.#{[2 - Math.log10(x.abs).floor, 0].max}f", x)
        end
      end
    end
  end
end
