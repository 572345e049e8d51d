# How to start one Runtime on its Interpreter: the ruby flags and environment its variants add, the
# facts the probe must confirm, and warnings. This is where "+yjit" becomes "--yjit".
module Rubyrig
  module Runtimes
    # probe_iseq: the probe precompiled for this interpreter (Runtimes::ProbeIseq), or nil; probe_native:
    # the probe's native fast path built for it (Runtimes::ProbeNative), or nil.
    Launch = Struct.new(:runtime, :interpreter, :ruby_flags, :env, :expect, :warnings, :blocker, :bin_dirs,
      :probe_iseq, :probe_native, keyword_init: true)

    class Launch
      # What the variants of a runtime build up while it is composed.
      Parts = Struct.new(:runtime, :interpreter, :jemalloc, :flags, :env, :expect, :warnings, :blocker, keyword_init: true)

      # Variables that would silently change the runtime if inherited from the user's shell, or from a
      # `bundle exec` around rubyrig itself: each runtime gets only its own settings and gems (and each
      # variant's own variables, Variant#env_names, are cleared too).
      NEUTRALIZED_ENV = %w[RUBYOPT JRUBY_OPTS RUBYLIB GEM_HOME GEM_PATH BUNDLE_GEMFILE BUNDLE_BIN_PATH BUNDLE_APP_CONFIG
        BUNDLER_SETUP BUNDLER_VERSION].freeze

      # Raises for a spec that can never work (unknown variant, no YJIT). A variant that cannot hold on
      # this host right now (no libjemalloc) becomes the blocker: each batch of the runtime fails with it.
      # bin_dirs: the directories to put first on PATH (Shim#bin_dirs), by default the interpreter's own.
      def self.compose(runtime, interpreter, jemalloc:, bin_dirs: [interpreter.bin_dir], probe_iseq: nil, probe_native: nil)
        parts = Parts.new(runtime: runtime, interpreter: interpreter, jemalloc: jemalloc, flags: [], warnings: [],
          env: (NEUTRALIZED_ENV + Variants.all.flat_map(&:env_names)).to_h { |k| [k, nil] },
          expect: {"engine" => interpreter.engine, "engine_version" => interpreter.version})
        asked, others = Variants.all.partition { |v| runtime.variants.key?(v.key) }
        others.each { |v| v.absent(parts) }
        asked.each { |v| v.apply(parts, runtime.variants[v.key]) }
        parts.env.merge!(runtime.env)
        parts.expect["env"] = (parts.expect["env"] || {}).merge(runtime.env) unless runtime.env.empty?
        new(runtime: runtime, interpreter: interpreter, ruby_flags: (parts.flags + runtime.flags).freeze,
          env: parts.env.freeze, expect: parts.expect.freeze, warnings: parts.warnings.freeze,
          blocker: parts.blocker, bin_dirs: bin_dirs.freeze, probe_iseq: probe_iseq,
          probe_native: probe_native).freeze
      end

      # Differences between what the probe saw in `facts` and what this launch asked for, as sentences.
      def contradictions(facts)
        problems = []
        if facts["engine"] && [facts["engine"], facts["engine_version"]] != expect.values_at("engine", "engine_version")
          problems << "a Ruby process ran #{facts["engine"]} #{facts["engine_version"]} instead of #{expect["engine"]} #{expect["engine_version"]}; " \
            "start Ruby as `ruby` (found first on PATH), not by another path"
        end
        problems.concat(Variants.all.filter_map { |v| v.contradiction(expect, facts) })
        (expect["env"] || {}).each do |key, value|
          seen = facts.dig("env", key)
          problems << "#{key}=#{value} was requested but the process saw #{seen.inspect}" unless seen == value
        end
        problems
      end

      # Warnings for what no probe of a batch could confirm (probes: the facts each wrote).
      def unverified(probes) = Variants.all.filter_map { |v| v.unverified(expect, probes) }

      # Env keys the probe must echo back so that contradictions can be checked.
      def echoed_env_keys = (expect["env"] || {}).keys
    end
  end
end
