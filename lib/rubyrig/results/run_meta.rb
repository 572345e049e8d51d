# The one reader and writer of a run's metadata (run.json): FIELDS is its layout, `build` and `with`
# the only ways to make or change one (an unknown field is refused), and typed accessors say what was
# run, where, how and with which settings, so that analysis, reports, --resume and merge never
# re-derive it from today's code or read its keys by hand. Runs written by earlier formats read with
# the fallbacks noted on each accessor.
module Rubyrig
  module Results
    class RunMeta
      # What run.json says about one workload; primary_metrics are candidates in order of preference.
      # options, iterations, warmup and timeout_s are what its batches run with (a resume too); options
      # is nil in runs that did not record them. revision: the commit of the workload's code and whether
      # its work tree had changes ({"commit", "dirty"}, see WorkloadRevision), nil outside git or in
      # runs that did not record it.
      Workload = Struct.new(:name, :kind, :primary_metrics, :sweeps, :framework, :load_generator, :cpu_split,
        :options, :iterations, :warmup, :timeout_s, :revision, keyword_init: true)

      # How comparisons are decided: the equivalence margin (default and per metric) and the number of
      # looks a sequential run (--until decided) was allowed; runs before these existed get the defaults.
      Decision = Struct.new(:equivalence, :equivalence_by_metric, :until_decided, :max_batches, :max_time_s, :looks,
        keyword_init: true) do
        def margin(metric) = equivalence_by_metric.fetch(metric, equivalence)
      end

      # The http CPU split given on the command line (nil when not given): --server-cpus, --load-cpus.
      CpuSettings = Struct.new(:server_cpus, :load_cpus, keyword_init: true)

      # What a shard's run says it is: index and count, its own seed and the run's, its batches per cell
      # and the run's.
      Shard = Struct.new(:index, :count, :seed, :run_seed, :batches, :total_batches, keyword_init: true)

      # What run.json holds of a runtime: its spec, the interpreter it resolved to (a Runtimes::Interpreter
      # as a Hash), the flags and environment of its variants, what the probe must confirm, warnings and the
      # diagnostics gems installed for it. `entry["spec"]` reads like the Hash it is in the file.
      RuntimeEntry = Struct.new(:spec, :interpreter, :ruby_flags, :env, :expect, :warnings, :diagnostics_gems,
        keyword_init: true)

      # One shard of a merged run, as `rubyrig merge` recorded it.
      MergedShard = Struct.new(:index, :count, :seed, :host_id, :dir, :created_at, :finished_at, :planned_batches,
        :trials, :rubyrig_version, :interpreter_paths, keyword_init: true)

      # What both entries share: read from run.json's Hash, written back as one.
      module Entry
        def self.included(struct) = struct.extend(ClassMethods)

        module ClassMethods
          def from_h(hash) = new(**hash.transform_keys(&:to_sym).slice(*members)).freeze
        end

        def to_record = to_h.transform_keys(&:to_s)

        def to_json(*args) = to_record.to_json(*args)
      end
      RuntimeEntry.include(Entry)
      MergedShard.include(Entry)

      # Every top-level field of run.json, in the order it is written.
      FIELDS = %i[format_version rubyrig_version name created_at command command_line cpu_settings experiment
        experiment_digest experiment_base_dir decision baseline plan runtimes bundles workloads metrics diagnostics host
        tools shard prepared resumed_at finished_at interrupted_at host_after hosts shard_count shards
        missing_shards ablations].freeze

      def self.build(**fields) = new(checked(fields))

      def self.checked(fields)
        unknown = fields.keys - FIELDS
        raise ArgumentError, "run.json has no field #{unknown.join(", ")}" unless unknown.empty?
        fields.to_h { |key, value| [key.to_s, value] }
      end

      def self.wrap(meta) = meta.is_a?(RunMeta) ? meta : new(meta)

      # Whether two records of an interpreter (run.json's "interpreter" entries) are the same build: the
      # same RUBY_DESCRIPTION and fingerprint (an earlier record without one, from before fingerprints,
      # matches any), and with path: true the same path (a resume; the shards of one run may differ).
      def self.same_interpreter?(before, now, path:)
        return false if path && before["path"] != now["path"]
        before["description"] == now["description"] && (before["fingerprint"].nil? || before["fingerprint"] == now["fingerprint"])
      end

      def initialize(hash)
        @hash = hash
      end

      # The run.json Hash to write.
      def to_h = @hash

      def [](key) = @hash[key]

      # A copy with these fields set (or removed, with nil values that `except` names).
      def with(**fields) = RunMeta.new(@hash.merge(RunMeta.checked(fields)))

      def except(*fields) = RunMeta.new(@hash.except(*RunMeta.checked(fields.to_h { |f| [f, nil] }).keys))

      def format_version = @hash.fetch("format_version", 1)

      def name = @hash["name"]

      def rubyrig_version = @hash["rubyrig_version"]

      def created_at = @hash["created_at"]

      def finished_at = @hash["finished_at"]

      def resumed_at = Array(@hash["resumed_at"])

      # The `prepare:` steps run so far: {"workload", "runtime", "argv", "duration_s", "log", "at"} each.
      def prepared = Array(@hash["prepared"])

      def baseline = @hash["baseline"]

      def seed = @hash.dig("plan", "seed")

      def plan = @plan ||= Experiment::Plan.from_h(@hash.fetch("plan"))

      def cells = plan.cells

      def batch_count = @hash.dig("plan", "order").to_a.size

      # "compare", "run" or "demo"; format 1 runs only kept the command line, whose second word it is.
      def command = @hash["command"] || Array(@hash["command_line"])[1]

      def command_line = Array(@hash["command_line"])

      def experiment = @hash["experiment"]

      def experiment_base_dir = @hash["experiment_base_dir"]

      def host = @hash["host"] || {}

      # The host a trial without a host id of its own ran on (runs before host ids were recorded).
      def host_id = host["host_id"] || host["hostname"]

      # host id => host facts: every host of a merged run, else the run's one host.
      def hosts = @hash["hosts"] || (host.empty? ? {} : {host_id => host})

      def experiment_digest = @hash["experiment_digest"]

      # A shard's run: its Shard, else nil.
      def shard
        given = @hash["shard"]
        given && Shard.new(**given.transform_keys(&:to_sym).slice(*Shard.members)).freeze
      end

      # A run written by `rubyrig merge`: its shards (index, count, seed, host_id, dir, created_at,
      # finished_at, planned and recorded batches) and the shard count the run was split into.
      def merged? = command == "merge"

      def shards = (@hash["shards"] || []).map { |entry| MergedShard.from_h(entry) }

      def shard_count = @hash["shard_count"]

      def missing_shards = @hash["missing_shards"] || []

      def host_after = @hash["host_after"] || {}

      def bundles = @hash["bundles"] || []

      # What `rubyrig why` found: {"command_line", "answers" => [{"difference", "line", "rows", "skipped"}]}
      # (Ablation::Answer records), nil before it ran.
      def ablations = @hash["ablations"]

      def diagnostics = @hash["diagnostics"] || {}

      def runtime_labels = runtimes.keys

      # label => RuntimeEntry
      def runtimes = @runtimes ||= (@hash["runtimes"] || {}).transform_values { |entry| RuntimeEntry.from_h(entry) }

      def runtime(label) = runtimes[label] || RuntimeEntry.new.freeze

      # The interpreter a runtime label resolved to when the run started (its Runtimes::Interpreter as a
      # Hash: path, description, fingerprint...), {} when not recorded.
      def interpreter(label) = runtime(label).interpreter || {}

      def interpreter_paths = runtimes.keys.to_h { |label| [label, interpreter(label)["path"]] }

      def workload_names = (@hash["workloads"] || {}).keys

      def workload(name)
        entry = @hash.dig("workloads", name) || {}
        Workload.new(name: name, kind: entry["kind"],
          primary_metrics: entry["primary_metrics"] || [entry["primary_metric"] || "wall_s"],
          sweeps: entry["sweeps"] || [], framework: entry["framework"], load_generator: entry["load_generator"],
          cpu_split: entry["cpu_split"], options: entry["options"], iterations: entry["iterations"],
          warmup: entry["warmup"], timeout_s: entry["timeout_s"], revision: entry["revision"]).freeze
      end

      # The metric definitions the run recorded when it started (a Metrics::Catalogue): what its reports
      # read, whatever today's code says. Runs from before format 3 recorded none; today's stand in
      # (recorded? is false).
      def metrics = @metrics ||= @hash["metrics"] ? Metrics::Catalogue.from_record(@hash["metrics"]) : Metrics.current

      def decision
        given = @hash["decision"] || {}
        Decision.new(equivalence: given["equivalence"] || Experiment::Decision::DEFAULT_EQUIVALENCE, equivalence_by_metric: given["equivalence_by_metric"] || {},
          until_decided: given["until"] == "decided", max_batches: given["max_batches"], max_time_s: given["max_time_s"],
          looks: given["looks"] || 1).freeze
      end

      # Format 1 runs did not record them; --resume then takes them from the command line once more.
      def cpu_settings
        given = @hash["cpu_settings"] || legacy_cpu_settings
        CpuSettings.new(server_cpus: given["server_cpus"], load_cpus: given["load_cpus"]).freeze
      end

      private

      def legacy_cpu_settings
        line = command_line
        {"--server-cpus" => "server_cpus", "--load-cpus" => "load_cpus"}.each_with_object({}) do |(flag, key), acc|
          i = line.index(flag)
          value = i ? line[i + 1] : line.find { |a| a.start_with?("#{flag}=") }&.split("=", 2)&.last
          acc[key] = value if value
        end
      end
    end
  end
end
