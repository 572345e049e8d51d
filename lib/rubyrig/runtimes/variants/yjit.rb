# +yjit: CRuby's JIT, turned on with --yjit. The probe confirms YJIT is on, and for a CRuby runtime
# that does not ask for it (by this or another YJIT variant, a flag or RUBY_YJIT_ENABLE) that it is off.
module Rubyrig
  module Runtimes
    module Variants
      module Yjit
        extend Variant

        def self.key = "yjit"

        def self.env_names = %w[RUBY_YJIT_ENABLE]

        def self.apply(parts, _value) = enable(parts, key)

        def self.absent(parts)
          parts.expect["yjit_enabled"] = requested_elsewhere?(parts.runtime) if parts.interpreter.cruby?
        end

        # Turns YJIT on for `variant` (yjit or one that implies it); raises when the interpreter has none.
        def self.enable(parts, variant)
          runtime = parts.runtime
          interpreter = parts.interpreter
          if interpreter.jruby?
            raise RuntimeSpecError, "runtime '#{runtime.spec}': YJIT is CRuby's JIT; JRuby compiles to JVM bytecode on its own, so drop +#{variant}"
          end
          unless interpreter.yjit
            raise RuntimeSpecError, "runtime '#{runtime.spec}': #{interpreter.name} (#{interpreter.description}) has no YJIT; use a CRuby built with YJIT, e.g. `rubyrig build 3.3.8` (needs rustc)"
          end
          parts.flags << "--yjit" unless parts.flags.include?("--yjit")
          parts.expect["yjit_enabled"] = true
        end

        def self.requested_elsewhere?(runtime)
          runtime.flags.any? { |f| f.start_with?("--yjit") } || runtime.env["RUBY_YJIT_ENABLE"].to_s.match?(/\A(1|true)\z/)
        end

        def self.contradiction(expect, facts)
          return nil unless expect.key?("yjit_enabled") && facts["yjit_enabled"] != expect["yjit_enabled"]
          expect["yjit_enabled"] ? "YJIT was requested but is not enabled in the process" : "YJIT is enabled although the runtime does not ask for it"
        end
      end
    end
  end
end
