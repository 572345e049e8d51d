# +jemalloc: the jemalloc allocator, preloaded (LD_PRELOAD) unless the interpreter links it already. The
# probe confirms the allocator in use, also for a build that links jemalloc without asking, so that its
# results are what its name says. Without the library on this host every batch fails with the fix.
module Rubyrig
  module Runtimes
    module Variants
      module Jemalloc
        extend Variant

        def self.key = "jemalloc"

        def self.env_names = %w[LD_PRELOAD]

        def self.apply(parts, _value)
          parts.expect["allocator"] = "jemalloc"
          return if parts.interpreter.jemalloc_linked
          library = parts.jemalloc
          if library&.path
            parts.env["LD_PRELOAD"] = library.path
          else
            parts.blocker = "runtime '#{parts.runtime.label}' wants jemalloc, but #{library&.problem || "no libjemalloc was looked for"}"
          end
        end

        def self.absent(parts)
          parts.expect["allocator"] = "jemalloc" if parts.interpreter.jemalloc_linked
        end

        def self.contradiction(expect, facts)
          return nil unless expect["allocator"] && facts["allocator"] != expect["allocator"]
          "+jemalloc was requested, but #{facts["allocator"]} malloc is in use"
        end
      end
    end
  end
end
