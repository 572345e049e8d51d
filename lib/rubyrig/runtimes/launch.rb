# How to start one Runtime on its Interpreter: the ruby flags and environment its variants add, the
# facts the probe must confirm, and warnings. This is where "+yjit" becomes "--yjit".
module Rubyrig
  module Runtimes
    Launch = Struct.new(:runtime, :interpreter, :ruby_flags, :env, :expect, :warnings, :bin_dirs, keyword_init: true)

    class Launch
      KNOWN_VARIANTS = %w[yjit yjit-mem yjit-stats jemalloc mn].freeze
      # Variables that would silently change the runtime if inherited from the user's shell.
      NEUTRALIZED_ENV = %w[RUBYOPT RUBY_YJIT_ENABLE RUBY_MN_THREADS LD_PRELOAD JRUBY_OPTS].freeze

      # bin_dirs: the directories to put first on PATH (Shim#bin_dirs), by default the interpreter's own.
      def self.compose(runtime, interpreter, jemalloc_path:, bin_dirs: [interpreter.bin_dir])
        flags = []
        env = NEUTRALIZED_ENV.to_h { |k| [k, nil] }
        expect = {"engine" => interpreter.engine, "engine_version" => interpreter.version}
        warnings = []
        unknown = runtime.variants.keys - KNOWN_VARIANTS
        unless unknown.empty?
          raise RuntimeSpecError, "unknown variant +#{unknown.first} in runtime '#{runtime.spec}': use one of #{KNOWN_VARIANTS.map { |v| "+#{v}" }.join(", ")}"
        end
        yjit_variants = runtime.variants.keys & %w[yjit yjit-mem yjit-stats]
        unless yjit_variants.empty?
          if interpreter.jruby?
            raise RuntimeSpecError, "runtime '#{runtime.spec}': YJIT is CRuby's JIT; JRuby compiles to JVM bytecode on its own, so drop +#{yjit_variants.first}"
          end
          unless interpreter.yjit
            raise RuntimeSpecError, "runtime '#{runtime.spec}': #{interpreter.name} (#{interpreter.description}) has no YJIT; build one with `rubyrig build VERSION` (needs rustc for 3.2+)"
          end
          flags << "--yjit"
          if (mem = runtime.variants["yjit-mem"])
            unless mem.to_s.match?(/\A[1-9]\d*\z/)
              raise RuntimeSpecError, "runtime '#{runtime.spec}': +yjit-mem needs a size in MiB, e.g. +yjit-mem=32"
            end
            flags << "--yjit-exec-mem-size=#{mem}"
          end
          if runtime.variants.key?("yjit-stats")
            flags << (interpreter.version_at_least?("3.3") ? "--yjit-stats=quiet" : "--yjit-stats")
          end
        end
        expect["yjit_enabled"] = !yjit_variants.empty? || yjit_requested_elsewhere?(runtime) if interpreter.cruby?
        if runtime.variants.key?("jemalloc")
          unless interpreter.jemalloc_linked
            jemalloc_path || raise(RuntimeSpecError, "runtime '#{runtime.spec}' wants jemalloc but no libjemalloc is installed: #{Jemalloc::INSTALL_HINT}")
            env["LD_PRELOAD"] = jemalloc_path
          end
          expect["allocator"] = "jemalloc"
        end
        if runtime.variants.key?("mn")
          env["RUBY_MN_THREADS"] = "1"
          expect["env"] = {"RUBY_MN_THREADS" => "1"}
          unless interpreter.mn?
            warnings << "runtime '#{runtime.label}': M:N threads need CRuby 3.3 or later; #{interpreter.engine} #{interpreter.version} ignores RUBY_MN_THREADS"
          end
        end
        env.merge!(runtime.env)
        expect["env"] = (expect["env"] || {}).merge(runtime.env) unless runtime.env.empty?
        new(runtime: runtime, interpreter: interpreter, ruby_flags: (flags + runtime.flags).freeze,
          env: env.freeze, expect: expect.freeze, warnings: warnings.freeze, bin_dirs: bin_dirs.freeze).freeze
      end

      def self.yjit_requested_elsewhere?(runtime)
        runtime.flags.any? { |f| f.start_with?("--yjit") } || runtime.env["RUBY_YJIT_ENABLE"].to_s.match?(/\A(1|true)\z/)
      end

      # Differences between what the probe saw in `facts` and what this launch asked for, as sentences.
      def contradictions(facts)
        problems = []
        if facts["engine"] && [facts["engine"], facts["engine_version"]] != expect.values_at("engine", "engine_version")
          problems << "a Ruby process ran #{facts["engine"]} #{facts["engine_version"]} instead of #{expect["engine"]} #{expect["engine_version"]}; " \
            "start Ruby as `ruby` (found first on PATH), not by another path"
        end
        if expect.key?("yjit_enabled") && facts["yjit_enabled"] != expect["yjit_enabled"]
          problems << (expect["yjit_enabled"] ? "YJIT was requested but is not enabled in the process" : "YJIT is enabled although the runtime does not ask for it")
        end
        if expect["allocator"] && facts["allocator"] != expect["allocator"]
          problems << "+jemalloc was requested, but #{facts["allocator"]} malloc is in use"
        end
        (expect["env"] || {}).each do |key, value|
          seen = facts.dig("env", key)
          problems << "#{key}=#{value} was requested but the process saw #{seen.inspect}" unless seen == value
        end
        problems
      end

      # Env keys the probe must echo back so that contradictions can be checked.
      def echoed_env_keys = (expect["env"] || {}).keys
    end
  end
end
