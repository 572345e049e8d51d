# Statistics of one metric of one cell over its ok batches.
module Rubyrig
  Summary = Struct.new(:cell_key, :runtime, :workload, :params, :metric, :unit,
    :n, :median, :mean, :sd, :cv, :p10, :p90, :min, :max, keyword_init: true)
end
