# +yjit-mem=MiB: YJIT with a given size of executable memory (--yjit-exec-mem-size); implies +yjit.
module Rubyrig
  module Runtimes
    module Variants
      module YjitMem
        extend Variant

        def self.key = "yjit-mem"

        def self.help = "+yjit-mem=MiB"

        def self.value = "a size in MiB, e.g. +yjit-mem=32"

        def self.apply(parts, value)
          Yjit.enable(parts, key)
          parts.flags << "--yjit-exec-mem-size=#{value}"
        end
      end
    end
  end
end
