# The GVL timeline files of one traced batch, relative to the run directory.
module Rubyrig
  class Analysis
    Trace = Struct.new(:cell_key, :batch_id, :files, keyword_init: true)
  end
end
