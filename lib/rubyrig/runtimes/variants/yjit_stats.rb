# +yjit-stats: YJIT with its statistics counted (quietly from CRuby 3.3 on, so that they do not print at
# exit), for the probe to report; implies +yjit.
module Rubyrig
  module Runtimes
    module Variants
      module YjitStats
        extend Variant

        def self.key = "yjit-stats"

        def self.apply(parts, _value)
          Yjit.enable(parts, key)
          parts.flags << (parts.interpreter.version_at_least?("3.3") ? "--yjit-stats=quiet" : "--yjit-stats")
        end
      end
    end
  end
end
