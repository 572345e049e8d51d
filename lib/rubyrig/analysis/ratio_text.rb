# How every format writes a ratio: three decimals for everyday ratios ("0.481", "4.277"), whole numbers
# from 1,000 to a million ("1630", "21700"), and three significant digits beyond ("1.23e+07") and below
# 0.01 ("0.000119", "4.23e-07"), where the digits would outgrow a table's column.
module Rubyrig
  class Analysis
    module RatioText
      module_function

      def number(r)
        if r.abs >= 1000 && r.abs < 1e6 then format("%.0f", r)
        elsif (r.abs >= 0.01 && r.abs < 1000) || r.zero? then format("%.3f", r)
        else format("%.3g", r)
        end
      end
    end
  end
end
