# What accounts for one decided difference: the Comparison it explains (runtime against its reference
# in one cell), the mean primary cost per unit of work on each side and their difference, a Part per
# measured component, the factors the data decide (reasons: [[word, Part], ...]; factors: the words),
# the component that leads when none is decided (leading: [word, Part] or nil), the same runtime's
# comparison in the neighbouring cells of the run, the counted components that moved with the cost when
# no component leads (observations: Parts), and the one line an app team reads. #contract is the `why`
# entry of summary.json (docs/results-format.md).
module Rubyrig
  class Analysis
    module Why
      Explanation = Struct.new(:cell, :comparison, :unit_word, :costs, :difference, :parts, :reasons, :factors, :leading, :neighbours, :observations, :line, keyword_init: true) do
        def runtime = comparison.runtime

        def reference = comparison.baseline

        def metric = comparison.metric

        # The cost's unit: seconds per unit of work for speed, bytes for memory.
        def unit = (metric == MEMORY_METRIC) ? "B" : "s"

        def contract
          c = comparison
          {"cell" => cell, "workload" => c.workload, "params" => c.params, "runtime" => c.runtime, "reference" => c.baseline,
           "metric" => c.metric, "ratio" => c.ratio, "low" => c.ci[0], "high" => c.ci[1], "verdict" => c.verdict,
           "unit" => unit, "difference" => difference, "factors" => factors, "leading" => leading_contract, "line" => line, "components" => parts.map(&:contract)}
        end

        # The factor that leads, its component and about how many batches per runtime would decide it.
        def leading_contract
          word, part = leading
          part && {"factor" => word, "name" => part.name, "batches" => part.estimate.batches}
        end
      end
    end
  end
end
