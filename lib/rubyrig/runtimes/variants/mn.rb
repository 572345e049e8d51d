# +mn: M:N thread scheduling (RUBY_MN_THREADS=1), which exists from CRuby 3.3 on. The probe echoes the
# variable, and on 3.3+ checks from inside, at exit, that blocked threads shared native threads.
module Rubyrig
  module Runtimes
    module Variants
      module Mn
        extend Variant

        def self.key = "mn"

        def self.env_names = %w[RUBY_MN_THREADS]

        # Whether `interpreter` schedules M:N threads when asked.
        def self.supported?(interpreter) = interpreter.cruby? && interpreter.version_at_least?("3.3")

        def self.apply(parts, _value)
          parts.env["RUBY_MN_THREADS"] = "1"
          parts.expect["env"] = (parts.expect["env"] || {}).merge("RUBY_MN_THREADS" => "1")
          interpreter = parts.interpreter
          return parts.expect["mn_active"] = true if supported?(interpreter)
          parts.warnings << "runtime '#{parts.runtime.label}': M:N threads need CRuby 3.3 or later; #{interpreter.engine} #{interpreter.version} ignores RUBY_MN_THREADS"
        end

        def self.contradiction(expect, facts)
          return nil unless expect["mn_active"] && facts.key?("mn_active") && facts["mn_active"] != true
          "M:N threads were requested but the process ran one native thread per Ruby thread"
        end

        def self.unverified(expect, probes)
          return nil unless expect["mn_active"] && !probes.empty? && probes.none? { |p| p.key?("mn_active") }
          "M:N threads could not be checked inside the process (no process reached its exit); RUBY_MN_THREADS=1 was seen"
        end
      end
    end
  end
end
