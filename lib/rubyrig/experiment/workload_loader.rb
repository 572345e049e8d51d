# The workloads of an experiment: `workload:` or `workloads:`, each a built-in's name or a mapping that
# names its kind by the kind's selector key (script:, command:, app:, jobs: ...) or `builtin:`. The
# common keys (name, params, iterations, prepare...) are checked here; the kind checks its own.
module Rubyrig
  class Experiment
    class WorkloadLoader
      COMMON_KEYS = %w[name params iterations warmup timeout_s gemfile sweeps builtin prepare].freeze

      # fields: the experiment's top level (Experiment::Fields).
      def initialize(fields)
        @fields = fields
      end

      def workloads
        single = @fields.key?("workload")
        @fields.fail(["workload"], "and `workloads:` are both given; keep one") if single && @fields.key?("workloads")
        list = single ? [@fields["workload"]] : @fields["workloads"]
        at = single ? ["workload"] : ["workloads"]
        @fields.fail([], "has no workloads; add e.g. `workloads: [{builtin: nbody}]`") if list.nil?
        @fields.fail(at, "must be a list of workloads") unless list.is_a?(Array)
        @fields.fail(at, "is empty; add at least one workload") if list.empty?
        workloads = list.each_with_index.map { |entry, i| workload(entry, single ? at : at + [i]) }
        duplicate = workloads.map(&:name).tally.find { |_, n| n > 1 }
        @fields.fail(at, "has the workload '#{duplicate[0]}' twice; give one a `name:`") if duplicate
        workloads
      end

      private

      def workload(entry, at)
        entry = {"builtin" => entry} if entry.is_a?(String) && Builtins.builtin?(entry)
        @fields.fail(at, "must be a mapping such as {builtin: nbody} or {script: bench.rb}") unless entry.is_a?(Hash)
        fields = @fields.child(at, entry)
        kind, builtin = kind(fields)
        fields.check_keys(COMMON_KEYS + Kinds.selectors + kind.keys, "a #{kind.kind} workload")
        params = params(fields, builtin, kind)
        loaded = kind.load(fields, builtin: builtin)
        params = params.merge(loaded.params) if loaded.params
        Workload.new(
          name: fields.optional("name", String) || builtin&.workload_name || loaded.name || loaded.target.to_s,
          kind: kind.kind, target: loaded.target, params: params.freeze,
          iterations: fields.positive_integer("iterations") || builtin&.iterations,
          warmup: fields.non_negative_integer("warmup") || builtin&.warmup,
          timeout_s: fields.positive_number("timeout_s"),
          gemfile: fields.optional("gemfile", String)&.then { |g| fields.path(g) } || builtin&.gemfile || (builtin ? nil : loaded.gemfile),
          options: loaded.options, sweeps: sweeps(fields, builtin, params), base_dir: fields.base_dir,
          prepare: fields["prepare"].nil? ? builtin&.prepare : fields.argv("prepare", "a command as a list of arguments, e.g. [bin/rails, db:prepare], or a command line")
        ).freeze
      end

      # [the kind, the built-in's definition or nil] of an entry that names exactly one.
      def kind(fields)
        selectors = Kinds.selectors
        given = selectors.select { |key| fields.key?(key) }
        given << "builtin" if fields.key?("builtin")
        if given.size != 1
          what = given.empty? ? "names no workload" : "names #{given.join(" and ")}"
          fields.fail([], "#{what}; give exactly one of builtin:, #{selectors.map { |k| "#{k}:" }.join(", ")}")
        end
        return [Kinds.by_selector(given.first), nil] unless given.first == "builtin"
        fields.fail(["builtin"], "must be a built-in name such as nbody") unless fields["builtin"].is_a?(String)
        builtin = fields.wrap(["builtin"]) { Builtins.fetch(fields["builtin"]) }
        [Kinds.fetch(builtin.kind), builtin]
      end

      # The parameter matrix: a built-in's parameters with the given ones over them, each a list of values.
      def params(fields, builtin, kind)
        given = fields.optional("params", Hash) || {}
        defaults = builtin ? builtin.params : {}
        unless defaults.empty?
          given.each_key do |key|
            next if defaults.key?(key) || kind.extra_params.include?(key)
            fields.fail(["params", key], "is not a parameter of #{builtin.workload_name}; #{Suggest.hint(key, defaults.keys + kind.extra_params)}")
          end
        end
        defaults.merge(given).to_h do |key, value|
          values = value.is_a?(Array) ? value : [value]
          fields.fail(["params", key], "is an empty list, so the matrix has no cells; give at least one value") if values.empty?
          unless values.all? { |v| v.is_a?(String) || v.is_a?(Numeric) || v == true || v == false }
            fields.fail(["params", key], "must be a value or a list of values (strings, numbers, booleans)")
          end
          [key.to_s, values.uniq.freeze]
        end
      end

      # Parameters compared against their first value within each runtime (besides threads, processes
      # and concurrency, which always are when they have several numeric values).
      def sweeps(fields, builtin, params)
        sweeps = fields.optional("sweeps", Array) || builtin&.options&.fetch("sweeps", nil) || []
        sweeps.each do |name|
          next if params.key?(name.to_s)
          fields.fail(["sweeps"], "names '#{name}', which is not a parameter; use one of #{params.keys.join(", ")}")
        end
        sweeps.map(&:to_s).freeze
      end
    end
  end
end
