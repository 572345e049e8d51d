# An experiment: runtimes, baseline, workloads with parameter matrices, batches and seed. Built from a
# YAML file or from CLI shortcuts through the same validation, which names the line and the fix.
require "shellwords"

module Rubyrig
  Experiment = Struct.new(:name, :description, :runtimes, :baseline, :workloads, :batches, :seed,
    :timeout_s, :cpus, :gvl, :trace, :profile, :decision, :inherit_env, :source, keyword_init: true)

  class Experiment
    DEFAULT_BATCHES = 5
    DEFAULT_TIMEOUT_S = 600
    # More batches per cell than any comparison needs; a larger number is a typo that would plan for ever.
    MAX_BATCHES = 10_000
    TRACES = %w[gvl].freeze
    PROFILERS = %w[stackprof vernier].freeze

    def self.load(path)
      from_source(YamlSource.load(path), base_dir: File.dirname(File.expand_path(path)))
    end

    def self.from_data(data, label: "command line", base_dir: Dir.pwd, flags: {})
      from_source(YamlSource.from_data(data, label, flags: flags), base_dir: base_dir)
    end

    def self.from_source(source, base_dir:)
      Loader.new(source, base_dir).experiment
    end

    def runtime(label) = runtimes.find { |r| r.label == label }

    def to_h
      {
        name: name, description: description, runtimes: runtimes.map(&:to_h), baseline: baseline,
        workloads: workloads.map(&:to_h), batches: batches, seed: seed, timeout_s: timeout_s, cpus: cpus,
        gvl: gvl, trace: trace, profile: profile, inherit_env: inherit_env
      }
    end
  end

  # Turns parsed YAML into an Experiment, rejecting unknown keys, wrong types and empty matrices.
  class Experiment::Loader
    TOP_KEYS = %w[name description runtimes baseline workloads workload batches seed timeout_s cpus gvl trace profile
      equivalence until max_batches max_time inherit_env].freeze
    RUNTIME_KEYS = %w[spec label env flags].freeze
    COMMON_WORKLOAD_KEYS = %w[name params iterations warmup timeout_s gemfile sweeps builtin prepare].freeze

    def initialize(source, base_dir)
      @source = source
      @base_dir = base_dir
    end

    def experiment
      data = @source.data
      fail_at([], "is empty or not a mapping; start with `runtimes:` and `workloads:`") unless data.is_a?(Hash)
      check_nul_bytes(data, [])
      check_keys(data, TOP_KEYS, [], "the top level")
      runtimes = load_runtimes(data)
      workloads = load_workloads(data)
      Experiment.new(
        name: optional(data, "name", String, []) || default_name,
        description: optional(data, "description", String, []),
        runtimes: runtimes.freeze,
        baseline: load_baseline(data, runtimes),
        workloads: workloads.freeze,
        batches: positive_integer(data, "batches", [], max: Experiment::MAX_BATCHES) || Experiment::DEFAULT_BATCHES,
        seed: optional(data, "seed", Integer, []) || Random.new_seed % 2**32,
        timeout_s: positive_number(data, "timeout_s", []) || Experiment::DEFAULT_TIMEOUT_S,
        cpus: cpus(data),
        gvl: boolean(data, "gvl", []).nil? || data["gvl"],
        trace: one_of(data, "trace", Experiment::TRACES),
        profile: one_of(data, "profile", Experiment::PROFILERS),
        decision: load_decision(data),
        inherit_env: load_inherit_env(data),
        source: @source.path.to_s
      ).freeze
    end

    private

    def default_name
      Processes::FileName.safe(File.basename(@source.path.to_s, ".*"))
    end

    def load_runtimes(data)
      list = data["runtimes"]
      fail_at(["runtimes"], "is missing; list at least one runtime, e.g. `runtimes: [system, system+yjit]`") if list.nil?
      fail_at(["runtimes"], "must be a list of runtime specs, e.g. [system, 3.3.8+yjit]") unless list.is_a?(Array)
      fail_at(["runtimes"], "is empty; list at least one runtime, e.g. [system, system+yjit]") if list.empty?
      runtimes = list.each_with_index.flat_map do |entry, i|
        next load_runtime(entry, ["runtimes", i]) unless entry.is_a?(String)
        wrap(["runtimes", i]) { Experiment::Runtime.expand(entry) }.map { |spec| load_runtime(spec, ["runtimes", i]) }
      end
      duplicate = runtimes.map(&:label).tally.find { |_, n| n > 1 }
      if duplicate
        fail_at(["runtimes"], "has the label '#{duplicate[0]}' twice; give each a label, e.g. a=system and b=system")
      end
      runtimes
    end

    def load_runtime(entry, at)
      case entry
      when String
        wrap(at) { Experiment::Runtime.parse(entry) }
      when Hash
        check_keys(entry, RUNTIME_KEYS, at, "a runtime")
        spec = entry["spec"]
        fail_at(at, "needs `spec:`, e.g. spec: 3.3.8+yjit") unless spec.is_a?(String)
        env = optional(entry, "env", Hash, at) || {}
        env.each do |key, value|
          unless key.is_a?(String) && key.match?(/\A[^=]+\z/)
            fail_at(at + ["env"], "has the variable name #{key.inspect}; a name is text without '=', e.g. RUBY_GC_HEAP_GROWTH_FACTOR")
          end
          unless value.is_a?(String) || value.is_a?(Numeric) || value == true || value == false
            fail_at(at + ["env", key], "must be a string or number, got #{value.class}")
          end
        end
        flags = optional(entry, "flags", Array, at) || []
        fail_at(at + ["flags"], "must be a list of strings, e.g. [--yjit-call-threshold=1]") unless flags.all?(String)
        wrap(at) { Experiment::Runtime.parse(spec, env: env, flags: flags, label: optional(entry, "label", String, at)) }
      else
        fail_at(at, "must be a spec string or a mapping with spec:, got #{entry.class}")
      end
    end

    def load_baseline(data, runtimes)
      baseline = optional(data, "baseline", String, []) || runtimes.first.label
      unless runtimes.any? { |r| r.label == baseline }
        fail_at(["baseline"], "'#{baseline}' is not a runtime label; use one of #{runtimes.map(&:label).join(", ")}")
      end
      baseline
    end

    def load_workloads(data)
      if data.key?("workload") && data.key?("workloads")
        fail_at(["workload"], "and `workloads:` are both given; keep one")
      end
      list = data.key?("workload") ? [data["workload"]] : data["workloads"]
      at = data.key?("workload") ? ["workload"] : ["workloads"]
      fail_at([], "has no workloads; add e.g. `workloads: [{builtin: nbody}]`") if list.nil?
      fail_at(at, "must be a list of workloads") unless list.is_a?(Array)
      fail_at(at, "is empty; add at least one workload") if list.empty?
      workloads = list.each_with_index.map do |entry, i|
        load_workload(entry, data.key?("workload") ? at : at + [i])
      end
      duplicate = workloads.map(&:name).tally.find { |_, n| n > 1 }
      fail_at(at, "has the workload '#{duplicate[0]}' twice; give one a `name:`") if duplicate
      workloads
    end

    def load_workload(entry, at)
      entry = {"builtin" => entry} if entry.is_a?(String) && Experiment::Builtins.builtin?(entry)
      fail_at(at, "must be a mapping such as {builtin: nbody} or {script: bench.rb}") unless entry.is_a?(Hash)
      kind, target, builtin = workload_kind(entry, at)
      driver = Drivers.fetch(kind)
      check_keys(entry, COMMON_WORKLOAD_KEYS + Drivers.selectors.keys + driver.option_keys, at, "a #{kind} workload")
      params = load_params(entry, at, builtin)
      Experiment::Workload.new(
        name: optional(entry, "name", String, at) || builtin&.workload_name || default_workload_name(kind, target),
        kind: kind,
        target: target,
        params: params.freeze,
        iterations: positive_integer(entry, "iterations", at) || builtin&.iterations,
        warmup: non_negative_integer(entry, "warmup", at) || builtin&.warmup,
        timeout_s: positive_number(entry, "timeout_s", at),
        gemfile: optional(entry, "gemfile", String, at)&.then { |g| File.expand_path(g, @base_dir) } || builtin&.gemfile ||
          (builtin ? nil : driver.default_gemfile(target)),
        options: driver.load_options(entry, builtin, ->(keys, message) { fail_at(at + keys, message) }, target),
        sweeps: load_sweeps(entry, at, builtin, params),
        base_dir: @base_dir,
        prepare: load_prepare(entry, at)
      ).freeze
    end

    # `prepare: bin/rails db:prepare` or `prepare: [bin/rails, db:prepare]`: an argv, never a shell line.
    def load_prepare(entry, at)
      value = entry["prepare"]
      return nil if value.nil?
      argv = value.is_a?(String) ? split_command(value, at + ["prepare"]) : value
      valid = argv.is_a?(Array) && !argv.empty? && argv.all? { |a| a.is_a?(String) || a.is_a?(Numeric) }
      unless valid
        fail_at(at + ["prepare"], "must be a command as a list of arguments, e.g. [bin/rails, db:prepare], or a command line")
      end
      argv.map(&:to_s).freeze
    end

    def workload_kind(entry, at)
      given = Drivers.selectors.keys.select { |k| entry.key?(k) }
      given << "builtin" if entry.key?("builtin")
      if given.size != 1
        what = given.empty? ? "names no workload" : "names #{given.join(" and ")}"
        fail_at(at, "#{what}; give exactly one of builtin:, #{Drivers.selectors.keys.map { |k| "#{k}:" }.join(", ")}")
      end
      key = given.first
      value = entry[key]
      if key == "builtin"
        fail_at(at + ["builtin"], "must be a built-in name such as nbody") unless value.is_a?(String)
        builtin = wrap(at + ["builtin"]) { Experiment::Builtins.fetch(value) }
        target = (builtin.kind == "script") ? builtin.path : builtin.name
        [builtin.kind, target, builtin]
      else
        [Drivers.selectors.fetch(key), load_target(key, value, at + [key]), nil]
      end
    end

    def load_target(key, value, at)
      case key
      when "jobs"
        fail_at(at, "must be the path of a Ruby file") unless value.is_a?(String)
        path = File.expand_path(value, @base_dir)
        fail_at(at, "file #{value} does not exist; give the path of a Ruby file") unless File.file?(path)
        path
      when "command"
        argv = value.is_a?(String) ? split_command(value, at) : value
        valid = argv.is_a?(Array) && !argv.empty? && argv.all? { |a| a.is_a?(String) || a.is_a?(Numeric) }
        unless valid
          fail_at(at, "must be a list of arguments such as [ruby, -e, \"1\"] or a command line")
        end
        argv.map(&:to_s)
      else
        Drivers.fetch(Drivers.selectors.fetch(key)).load_target(value, @base_dir, ->(message) { fail_at(at, message) })
      end
    end

    # A command line split as a shell would, without running one.
    def split_command(text, at)
      Shellwords.split(text)
    rescue ArgumentError => e # Shellwords' only complaint: a quote that is never closed
      fail_at(at, "has an #{e.message.sub(/:.*/m, "").downcase} in #{text.inspect}; close it, or give the command as a list of arguments")
    end

    def default_workload_name(kind, target)
      case kind
      when "script" then Drivers::Script.default_name(target)
      when "jobs" then File.basename(target)
      when "command" then target.join(" ")[0, 60]
      else target.to_s
      end
    end

    def load_params(entry, at, builtin)
      given = optional(entry, "params", Hash, at) || {}
      defaults = builtin ? builtin.params : {}
      unless defaults.empty?
        given.each_key do |key|
          next if defaults.key?(key)
          fail_at(at + ["params", key], "is not a parameter of #{builtin.workload_name}; #{Suggest.hint(key, defaults.keys)}")
        end
      end
      defaults.merge(given).to_h do |key, value|
        values = value.is_a?(Array) ? value : [value]
        if values.empty?
          fail_at(at + ["params", key], "is an empty list, so the matrix has no cells; give at least one value")
        end
        unless values.all? { |v| v.is_a?(String) || v.is_a?(Numeric) || v == true || v == false }
          fail_at(at + ["params", key], "must be a value or a list of values (strings, numbers, booleans)")
        end
        [key.to_s, values.uniq.freeze]
      end
    end

    # Parameters compared against their first value within each runtime (besides threads, processes
    # and concurrency, which always are when they have several numeric values).
    def load_sweeps(entry, at, builtin, params)
      sweeps = optional(entry, "sweeps", Array, at) || builtin&.options&.fetch("sweeps", nil) || []
      sweeps.each do |name|
        fail_at(at + ["sweeps"], "names '#{name}', which is not a parameter; use one of #{params.keys.join(", ")}") unless params.key?(name.to_s)
      end
      sweeps.map(&:to_s).freeze
    end

    def load_decision(data)
      decision = Experiment::Decision
      equivalence, by_metric = load_equivalence(data["equivalence"])
      until_decided = !one_of(data, "until", %w[decided]).nil?
      batches = data["batches"] || Experiment::DEFAULT_BATCHES
      if until_decided && batches.is_a?(Integer) && batches < Analysis::Inference::MIN_BATCHES
        fail_at(["batches"], "is #{batches}; `until: decided` starts from at least #{Analysis::Inference::MIN_BATCHES} batches per cell")
      end
      max_batches = positive_integer(data, "max_batches", [], max: Experiment::MAX_BATCHES)
      if max_batches && !until_decided
        fail_at(["max_batches"], "needs `until: decided` (without it every cell gets exactly `batches`)")
      end
      max_batches ||= [decision::DEFAULT_MAX_BATCHES, batches].max if until_decided
      if max_batches && batches.is_a?(Integer) && max_batches < batches
        fail_at(["max_batches"], "is #{max_batches}, below batches #{batches}; the run starts with `batches` and adds rounds up to max_batches")
      end
      max_time_s = nil
      unless data["max_time"].nil?
        fail_at(["max_time"], "needs `until: decided`") unless until_decided
        max_time_s = decision.duration_s(data["max_time"]) ||
          fail_at(["max_time"], "must be a duration such as 90s, 30m or 1h30m, got #{data["max_time"].inspect}")
      end
      decision.new(equivalence: equivalence, equivalence_by_metric: by_metric.freeze, until_decided: until_decided,
        max_batches: max_batches, max_time_s: max_time_s).freeze
    end

    # `equivalence: 2%`, or per metric `equivalence: {default: 2%, peak_rss_bytes: 5%}`.
    def load_equivalence(value)
      decision = Experiment::Decision
      return [decision::DEFAULT_EQUIVALENCE, {}] if value.nil?
      unless value.is_a?(Hash)
        return [decision.percent(value) || fail_at(["equivalence"], "must be a percentage such as 2% (or a mapping of metric to percentage), got #{value.inspect}"), {}]
      end
      margins = value.to_h do |metric, pct|
        margin = decision.percent(pct) || fail_at(["equivalence", metric], "must be a percentage such as 2%, got #{pct.inspect}")
        unless metric == "default" || Metrics.known?(metric.to_s) || metric.to_s.match?(/_(per_s|s|bytes)\z/)
          fail_at(["equivalence", metric], "is not a metric; #{Suggest.hint(metric, ["default", *Metrics::CATALOGUE.keys])}", own_name: false)
        end
        [metric.to_s, margin]
      end
      [margins.delete("default") || decision::DEFAULT_EQUIVALENCE, margins]
    end

    # Names of rubyrig's environment variables to pass on to the measured processes, besides the ones
    # every process gets (InheritedEnv).
    def load_inherit_env(data)
      list = optional(data, "inherit_env", Array, []) || []
      bad = list.find { |name| !(name.is_a?(String) && name.match?(Processes::InheritedEnv::PATTERN)) }
      fail_at(["inherit_env"], "must list variable names such as DATABASE_URL or AWS_* (a prefix), got #{bad.inspect}") unless bad.nil?
      list.uniq.freeze
    end

    def cpus(data)
      value = data["cpus"]
      return nil if value.nil?
      text = value.to_s
      fail_at(["cpus"], Processes::CpuList.problem(value)) unless Processes::CpuList.valid?(text)
      text
    end

    def boolean(hash, key, at)
      value = hash[key]
      return nil if value.nil?
      fail_at(at + [key], "must be true or false, got #{value.inspect}") unless value == true || value == false
      value
    end

    def one_of(hash, key, choices)
      value = hash[key]
      return nil if value.nil?
      fail_at([key], "must be one of #{choices.join(", ")}, got #{value.inspect}") unless choices.include?(value)
      value
    end

    # Text with a NUL byte can be no file name, argument or environment variable; refused wherever it is.
    def check_nul_bytes(node, at)
      case node
      when Hash
        node.each do |key, value|
          fail_at(at, "has a key with a NUL byte (#{key.dump}); remove it") if key.is_a?(String) && key.include?("\0")
          check_nul_bytes(value, at + [key])
        end
      when Array then node.each_with_index { |value, i| check_nul_bytes(value, at + [i]) }
      when String then fail_at(at, "holds a NUL byte (#{node.dump[0, 60]}), which no file name, argument or environment variable can; remove it") if node.include?("\0")
      end
    end

    def check_keys(hash, allowed, at, what)
      hash.each_key do |key|
        next if allowed.include?(key)
        hint = Suggest.hint(key, allowed, fallback: "allowed keys: #{allowed.join(", ")}")
        fail_at(at + [key], "unknown key '#{key}' in #{what}; #{hint}", own_name: false)
      end
    end

    def optional(hash, key, type, at)
      value = hash[key]
      return nil if value.nil?
      return value if value.is_a?(type)
      article = (type == Integer || type == Array) ? "an" : "a"
      fail_at(at + [key], "must be #{article} #{type.name.downcase}, got #{value.inspect}")
    end

    def positive_integer(hash, key, at, max: nil)
      value = hash[key]
      return nil if value.nil?
      fail_at(at + [key], "must be a positive integer, got #{value.inspect}; write e.g. #{key}: 5") unless value.is_a?(Integer) && value.positive?
      fail_at(at + [key], "must be at most #{max}, got #{value}") if max && value > max
      value
    end

    def non_negative_integer(hash, key, at)
      value = hash[key]
      return nil if value.nil?
      fail_at(at + [key], "must be an integer of 0 or more, got #{value.inspect}") unless value.is_a?(Integer) && value >= 0
      value
    end

    def positive_number(hash, key, at)
      value = hash[key]
      return nil if value.nil?
      fail_at(at + [key], "must be a positive number of seconds, got #{value.inspect}") unless value.is_a?(Numeric) && value.positive?
      value
    end

    # A value that came from a command-line flag is that flag's error (usage, exit 2); one from a file
    # names the file and line.
    def wrap(at)
      yield
    rescue Error => e
      flag = @source.flag_for(at)
      raise UsageError, "#{flag[0]}: #{e.message}" if flag
      raise ExperimentError, "#{@source.where(at)}: #{e.message}"
    end

    def fail_at(keys, message, own_name: true)
      name = keys.reverse.find { |k| k.is_a?(String) }
      flag, rest = @source.flag_for(keys)
      if flag
        subject = (own_name && rest.any? { |k| k.is_a?(String) }) ? "#{flag} #{name}" : flag
        raise UsageError, "#{subject} #{message}"
      end
      subject = (own_name && name) ? "#{name} " : ""
      raise ExperimentError, "#{@source.where(keys)}: #{subject}#{message}"
    end
  end
end
