# How to start one Runtime on its Interpreter: the ruby flags and environment its variants add, the
# facts the probe must confirm, and warnings. This is where "+yjit" becomes "--yjit".
module Rubyrig
  module Runtimes
    # probe_iseq: the probe precompiled for this interpreter (Runtimes::ProbeIseq), or nil.
    Launch = Struct.new(:runtime, :interpreter, :ruby_flags, :env, :expect, :warnings, :blocker, :bin_dirs,
      :probe_iseq, keyword_init: true)

    class Launch
      YJIT_VARIANTS = %w[yjit yjit-mem yjit-stats].freeze
      # Variables that would silently change the runtime if inherited from the user's shell, or from a
      # `bundle exec` around rubyrig itself: each runtime gets only its own settings and gems.
      NEUTRALIZED_ENV = %w[RUBYOPT RUBY_YJIT_ENABLE RUBY_MN_THREADS LD_PRELOAD JRUBY_OPTS RUBYLIB GEM_HOME GEM_PATH
        BUNDLE_GEMFILE BUNDLE_BIN_PATH BUNDLE_APP_CONFIG BUNDLER_SETUP BUNDLER_VERSION].freeze

      # Raises for a spec that can never work (unknown variant, no YJIT). A variant that cannot hold on
      # this host right now (no libjemalloc) becomes the blocker: each batch of the runtime fails with it.
      # bin_dirs: the directories to put first on PATH (Shim#bin_dirs), by default the interpreter's own.
      def self.compose(runtime, interpreter, jemalloc:, bin_dirs: [interpreter.bin_dir], probe_iseq: nil)
        expect = {"engine" => interpreter.engine, "engine_version" => interpreter.version}
        parts = {flags: [], env: NEUTRALIZED_ENV.to_h { |k| [k, nil] }, expect: expect, warnings: [], blocker: nil}
        add_yjit(runtime, interpreter, parts)
        add_jemalloc(runtime, interpreter, jemalloc, parts) if runtime.variants.key?("jemalloc")
        # A build that links jemalloc is checked for it too, so that its results are what its name says.
        parts[:expect]["allocator"] = "jemalloc" if interpreter.jemalloc_linked
        add_mn(runtime, interpreter, parts) if runtime.variants.key?("mn")
        parts[:env].merge!(runtime.env)
        parts[:expect]["env"] = (parts[:expect]["env"] || {}).merge(runtime.env) unless runtime.env.empty?
        new(runtime: runtime, interpreter: interpreter, ruby_flags: (parts[:flags] + runtime.flags).freeze,
          env: parts[:env].freeze, expect: parts[:expect].freeze, warnings: parts[:warnings].freeze,
          blocker: parts[:blocker], bin_dirs: bin_dirs.freeze, probe_iseq: probe_iseq).freeze
      end

      def self.add_yjit(runtime, interpreter, parts)
        wanted = runtime.variants.keys & YJIT_VARIANTS
        parts[:expect]["yjit_enabled"] = !wanted.empty? || yjit_requested_elsewhere?(runtime) if interpreter.cruby?
        return if wanted.empty?
        if interpreter.jruby?
          raise RuntimeSpecError, "runtime '#{runtime.spec}': YJIT is CRuby's JIT; JRuby compiles to JVM bytecode on its own, so drop +#{wanted.first}"
        end
        unless interpreter.yjit
          raise RuntimeSpecError, "runtime '#{runtime.spec}': #{interpreter.name} (#{interpreter.description}) has no YJIT; use a CRuby built with YJIT, e.g. `rubyrig build 3.3.8` (needs rustc)"
        end
        parts[:flags] << "--yjit"
        parts[:flags] << "--yjit-exec-mem-size=#{runtime.variants["yjit-mem"]}" if runtime.variants.key?("yjit-mem")
        return unless runtime.variants.key?("yjit-stats")
        parts[:flags] << (interpreter.version_at_least?("3.3") ? "--yjit-stats=quiet" : "--yjit-stats")
      end

      def self.add_jemalloc(runtime, interpreter, jemalloc, parts)
        parts[:expect]["allocator"] = "jemalloc"
        return if interpreter.jemalloc_linked
        if jemalloc.path
          parts[:env]["LD_PRELOAD"] = jemalloc.path
        else
          parts[:blocker] = "runtime '#{runtime.label}' wants jemalloc, but #{jemalloc.problem}"
        end
      end

      def self.add_mn(runtime, interpreter, parts)
        parts[:env]["RUBY_MN_THREADS"] = "1"
        parts[:expect]["env"] = {"RUBY_MN_THREADS" => "1"}
        # On 3.3+ the probe checks from inside, at exit, that blocked threads share native threads.
        return parts[:expect]["mn_active"] = true if interpreter.mn?
        parts[:warnings] << "runtime '#{runtime.label}': M:N threads need CRuby 3.3 or later; #{interpreter.engine} #{interpreter.version} ignores RUBY_MN_THREADS"
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
        if expect["mn_active"] && facts.key?("mn_active") && facts["mn_active"] != true
          problems << "M:N threads were requested but the process ran one native thread per Ruby thread"
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
