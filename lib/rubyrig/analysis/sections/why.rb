# The Why section: for each decided difference (Why::Explanation) a table of its components per unit
# of work (each side's mean, the ratio with the interval decided on and its verdict, the share of the
# difference with its interval, the factor when named or leading), the one line under it and, in HTML, the bars of
# where the cost went. Its data is the `why` key of summary.json, present (maybe empty) in every report.
module Rubyrig
  class Analysis
    module Sections
      module Why
        module_function

        def section(report)
          explanations = report.why.to_a
          plots = report.figures.why
          Section.of(name: "why", title: "Why: what accounts for each decided difference", data: {"why" => explanations.map(&:contract)},
            tables: explanations.zip(plots).map { |e, plot| table(e, plot) })
        end

        def table(e, plot)
          unit = e.unit
          columns = [[:component, "component", "text"], [:factor, "factor", "text"], [:reference_mean, e.reference, unit, {runtime: e.reference}],
            [:runtime_mean, e.runtime, unit, {runtime: e.runtime}], [:ratio, "ratio", "ratio"], [:verdict, "verdict", "verdict"],
            [:share, "share of the difference", "fraction"]]
          named = e.reasons.to_h { |word, part| [part.name, word] }
          named[e.leading.last.name] = "#{e.leading.first} (leads, not decided)" if e.leading
          rows = e.parts.map { |p| row(e, p, named[p.name], unit) }
          per = e.unit_word ? "per #{e.unit_word}: " : ""
          Section.table(name: "why", title: "Why · #{e.runtime} against #{e.reference} · #{Section.where(e.comparison.workload, e.comparison.params)}",
            description: "#{per}each side's mean, the ratio with its interval (corrected over the #{e.parts.size} components) and the share " \
              "of the difference with its interval", columns: columns, rows: rows, notes: [e.line], figure: [:why, plot])
        end

        def row(e, part, factor, unit)
          same_unit = Metrics.fetch(part.name).unit == unit
          means = (part.measured? && same_unit) ? part.means : {}
          label = part.measured? ? part.component.label : "#{part.component.label} (not measured on #{part.unmeasured.join(" and ")})"
          {component: label, factor: factor.to_s, runtime: e.runtime, workload: e.comparison.workload, params: e.comparison.params,
           reference_mean: means[e.reference], runtime_mean: means[e.runtime], ratio: part.comparison, verdict: part.comparison,
           share: part.share && Section::Estimate.new(value: part.share, ci: part.share_ci)}
        end
      end
    end
  end
end
