# Statistics of one metric of one cell over its ok measured batches, with the batch values themselves,
# the host and the round each came from, and the 95% interval of the median (nil below 6 batches).
module Rubyrig
  class Analysis
    Summary = Struct.new(:cell_key, :runtime, :workload, :params, :metric, :unit,
      :n, :median, :mean, :sd, :cv, :p10, :p90, :min, :max, :median_ci, :values, :hosts, :rounds, keyword_init: true)
  end
end
