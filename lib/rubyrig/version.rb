# The gem's version.
module Rubyrig
  VERSION = "0.1.0"
end
