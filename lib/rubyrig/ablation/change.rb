# A runtime's experiment entry with one thing changed: a variant added or taken away, or its RUBY_GC_*
# variables replaced. The label stays, so that the follow-up compares the same names as the run.
module Rubyrig
  module Ablation
    module Change
      module_function

      # The experiment entry of an Experiment::Runtime: {"spec", "label", "env", "flags"}.
      def entry(runtime, variants: runtime.variants, env: runtime.env)
        spec = ([runtime.base] + variants.map { |name, value| (value == true) ? name : "#{name}=#{value}" }).join("+")
        {"spec" => spec, "label" => runtime.label, "env" => env.to_h, "flags" => runtime.flags.to_a}
      end

      def add_variant(runtime, name, value = true) = entry(runtime, variants: runtime.variants.merge(name => value))

      def remove_variants(runtime, names) = entry(runtime, variants: runtime.variants.except(*names))

      # Every RUBY_GC_* variable the runtime sets gives way to `gc_env`.
      def gc_env(runtime, gc_env) = entry(runtime, env: runtime.env.reject { |k, _| k.start_with?("RUBY_GC_") }.merge(gc_env))

      def yjit?(runtime) = runtime.variants.key?("yjit") || runtime.variants.key?("yjit-mem") || runtime.flags.to_a.any? { |f| f.start_with?("--yjit") }
    end
  end
end
