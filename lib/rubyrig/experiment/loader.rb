# Turns parsed YAML into an Experiment, rejecting unknown keys, wrong types and empty matrices: the top
# level, the runtimes, the baseline and the decision rules here; the workloads in WorkloadLoader, which
# asks each workload's kind about its own keys.
module Rubyrig
  class Experiment
    class Loader
      TOP_KEYS = %w[name description runtimes baseline workloads workload batches seed timeout_s cpus gvl trace profile
        equivalence until max_batches max_time inherit_env].freeze
      RUNTIME_KEYS = %w[spec label env flags].freeze

      def initialize(source, base_dir)
        @source = source
        @fields = Fields.new(source, source.data, base_dir: base_dir)
      end

      def experiment
        data = @source.data
        @fields.fail([], "is empty or not a mapping; start with `runtimes:` and `workloads:`") unless data.is_a?(Hash)
        check_nul_bytes(data, [])
        @fields.check_keys(TOP_KEYS, "the top level")
        runtimes = load_runtimes(data)
        Experiment.new(
          name: @fields.optional("name", String) || default_name,
          description: @fields.optional("description", String),
          runtimes: runtimes.freeze,
          baseline: load_baseline(runtimes),
          workloads: WorkloadLoader.new(@fields).workloads.freeze,
          batches: @fields.positive_integer("batches", max: Experiment::MAX_BATCHES) || Experiment::DEFAULT_BATCHES,
          seed: @fields.optional("seed", Integer) || Random.new_seed % 2**32,
          timeout_s: @fields.positive_number("timeout_s") || Experiment::DEFAULT_TIMEOUT_S,
          cpus: cpus(data),
          gvl: @fields.boolean("gvl").nil? || data["gvl"],
          trace: @fields.one_of("trace", Experiment::TRACES),
          profile: @fields.one_of("profile", Experiment::PROFILERS),
          decision: DecisionLoader.new(@fields).decision,
          inherit_env: load_inherit_env,
          source: @source.path.to_s
        ).freeze
      end

      private

      def default_name
        Processes::FileName.safe(File.basename(@source.path.to_s, ".*"))
      end

      def load_runtimes(data)
        list = data["runtimes"]
        @fields.fail(["runtimes"], "is missing; list at least one runtime, e.g. `runtimes: [system, system+yjit]`") if list.nil?
        @fields.fail(["runtimes"], "must be a list of runtime specs, e.g. [system, 3.3.8+yjit]") unless list.is_a?(Array)
        @fields.fail(["runtimes"], "is empty; list at least one runtime, e.g. [system, system+yjit]") if list.empty?
        runtimes = list.each_with_index.flat_map do |entry, i|
          next load_runtime(entry, ["runtimes", i]) unless entry.is_a?(String)
          @fields.wrap(["runtimes", i]) { Runtime.expand(entry) }.map { |spec| load_runtime(spec, ["runtimes", i]) }
        end
        duplicate = runtimes.map(&:label).tally.find { |_, n| n > 1 }
        if duplicate
          @fields.fail(["runtimes"], "has the label '#{duplicate[0]}' twice; give each a label, e.g. a=system and b=system")
        end
        runtimes
      end

      def load_runtime(entry, at)
        case entry
        when String
          @fields.wrap(at) { Runtime.parse(entry) }
        when Hash
          runtime_entry(@fields.child(at, entry))
        else
          @fields.fail(at, "must be a spec string or a mapping with spec:, got #{entry.class}")
        end
      end

      def runtime_entry(fields)
        fields.check_keys(RUNTIME_KEYS, "a runtime")
        spec = fields["spec"]
        fields.fail([], "needs `spec:`, e.g. spec: 3.3.8+yjit") unless spec.is_a?(String)
        env = fields.optional("env", Hash) || {}
        env.each do |key, value|
          unless key.is_a?(String) && key.match?(/\A[^=]+\z/)
            fields.fail(["env"], "has the variable name #{key.inspect}; a name is text without '=', e.g. RUBY_GC_HEAP_GROWTH_FACTOR")
          end
          unless value.is_a?(String) || value.is_a?(Numeric) || value == true || value == false
            fields.fail(["env", key], "must be a string or number, got #{value.class}")
          end
        end
        flags = fields.optional("flags", Array) || []
        fields.fail(["flags"], "must be a list of strings, e.g. [--yjit-call-threshold=1]") unless flags.all?(String)
        fields.wrap([]) { Runtime.parse(spec, env: env, flags: flags, label: fields.optional("label", String)) }
      end

      def load_baseline(runtimes)
        baseline = @fields.optional("baseline", String) || runtimes.first.label
        unless runtimes.any? { |r| r.label == baseline }
          @fields.fail(["baseline"], "'#{baseline}' is not a runtime label; use one of #{runtimes.map(&:label).join(", ")}")
        end
        baseline
      end

      # Names of rubyrig's environment variables to pass on to the measured processes, besides the ones
      # every process gets (InheritedEnv).
      def load_inherit_env
        list = @fields.optional("inherit_env", Array) || []
        bad = list.find { |name| !(name.is_a?(String) && name.match?(Processes::InheritedEnv::PATTERN)) }
        @fields.fail(["inherit_env"], "must list variable names such as DATABASE_URL or AWS_* (a prefix), got #{bad.inspect}") unless bad.nil?
        list.uniq.freeze
      end

      def cpus(data)
        value = data["cpus"]
        return nil if value.nil?
        text = value.to_s
        @fields.fail(["cpus"], Processes::CpuList.problem(value)) unless Processes::CpuList.valid?(text)
        text
      end

      # Text with a NUL byte can be no file name, argument or environment variable; refused wherever it is.
      def check_nul_bytes(node, at)
        case node
        when Hash
          node.each do |key, value|
            @fields.fail(at, "has a key with a NUL byte (#{key.dump}); remove it") if key.is_a?(String) && key.include?("\0")
            check_nul_bytes(value, at + [key])
          end
        when Array then node.each_with_index { |value, i| check_nul_bytes(value, at + [i]) }
        when String then @fields.fail(at, "holds a NUL byte (#{node.dump[0, 60]}), which no file name, argument or environment variable can; remove it") if node.include?("\0")
        end
      end
    end
  end
end
