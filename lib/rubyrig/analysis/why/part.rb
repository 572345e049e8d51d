# One component of a difference (Why::Explanation), compared between the two runtimes.
module Rubyrig
  class Analysis
    module Why
      # One component: its definition (Components::Component), its Comparison (nil when a side did not
      # measure it), the Share::Estimate of the difference it accounts for (additive ones), each side's
      # mean per unit of work by runtime, and the runtimes that did not measure it.
      Part = Struct.new(:component, :comparison, :estimate, :means, :unmeasured, keyword_init: true) do
        def name = component.name

        def measured? = !comparison.nil?

        def share = estimate&.share

        def share_ci = estimate&.ci

        def contract
          c = comparison
          {"name" => name, "unit" => Metrics.fetch(name).unit, "ratio" => c&.ratio, "low" => c&.ci&.first, "high" => c&.ci&.last,
           "verdict" => c ? c.verdict : "not measured", "difference" => estimate&.difference, "share" => share,
           "share_low" => share_ci&.first, "share_high" => share_ci&.last}
        end
      end
    end
  end
end
