# The gem version, and the version of the results format it writes.
module Rubyrig
  VERSION = "0.1.0"
  RESULTS_FORMAT_VERSION = 2
end
