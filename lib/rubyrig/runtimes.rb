# Namespace for finding, describing, building and equipping Ruby interpreters.
module Rubyrig
  module Runtimes
  end
end
