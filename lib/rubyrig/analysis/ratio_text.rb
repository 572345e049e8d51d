# How every format writes a ratio: three decimals for everyday ratios ("0.481", "4.277"), whole numbers
# from 1,000 up ("1630", "21700"), and three significant digits below 0.01 ("0.000119"), so that the
# extreme ends of an interval few batches leave wide stay readable and no figure is in e-notation.
module Rubyrig
  class Analysis
    module RatioText
      module_function

      def number(r)
        if r.abs >= 1000 then format("%.0f", r)
        elsif r.abs >= 0.01 || r.zero? then format("%.3f", r)
        else format("%.3g", r).sub(/\A(-?)(\d)\.?(\d*)e-0?(\d+)\z/) { "#{$1}0.#{"0" * ($4.to_i - 1)}#{$2}#{$3}" }
        end
      end
    end
  end
end
