# The one reader of a run's metadata (run.json): typed accessors for what was run, where, how and
# with which settings, so that analysis, reports and --resume never re-derive it from today's code or
# from the command line. Runs written by format 1 read with the fallbacks noted on each accessor.
module Rubyrig
  module Results
    class RunMeta
      # What run.json says about one workload; primary_metrics are candidates in order of preference.
      Workload = Struct.new(:name, :kind, :primary_metrics, :sweeps, :framework, :load_generator, :cpu_split,
        keyword_init: true)

      # How comparisons are decided: the equivalence margin (default and per metric) and the number of
      # looks a sequential run (--until decided) was allowed; runs before these existed get the defaults.
      Decision = Struct.new(:equivalence, :equivalence_by_metric, :until_decided, :max_batches, :max_time_s, :looks,
        keyword_init: true) do
        def margin(metric) = equivalence_by_metric.fetch(metric, equivalence)
      end

      # The http CPU split given on the command line (nil when not given): --server-cpus, --load-cpus.
      CpuSettings = Struct.new(:server_cpus, :load_cpus, keyword_init: true)

      def self.wrap(meta) = meta.is_a?(RunMeta) ? meta : new(meta)

      def initialize(hash)
        @hash = hash
      end

      def to_h = @hash

      def [](key) = @hash[key]

      def format_version = @hash.fetch("format_version", 1)

      def name = @hash["name"]

      def rubyrig_version = @hash["rubyrig_version"]

      def created_at = @hash["created_at"]

      def finished_at = @hash["finished_at"]

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

      # {"index", "count", "seed", "run_seed", "batches", "total_batches"} of a shard's run, else nil.
      def shard = @hash["shard"]

      # A run written by `rubyrig merge`: its shards (index, count, seed, host_id, dir, created_at,
      # finished_at, planned and recorded batches) and the shard count the run was split into.
      def merged? = command == "merge"

      def shards = @hash["shards"] || []

      def shard_count = @hash["shard_count"]

      def missing_shards = @hash["missing_shards"] || []

      def host_after = @hash["host_after"] || {}

      def bundles = @hash["bundles"] || []

      def diagnostics = @hash["diagnostics"] || {}

      def runtime_labels = runtimes.keys

      # label => {"spec", "interpreter", "ruby_flags", "env", "expect", "warnings", "diagnostics_gems"}
      def runtimes = @hash["runtimes"] || {}

      def runtime(label) = runtimes[label] || {}

      def workload_names = (@hash["workloads"] || {}).keys

      def workload(name)
        entry = @hash.dig("workloads", name) || {}
        Workload.new(name: name, kind: entry["kind"],
          primary_metrics: entry["primary_metrics"] || [entry["primary_metric"] || "wall_s"],
          sweeps: entry["sweeps"] || [], framework: entry["framework"], load_generator: entry["load_generator"],
          cpu_split: entry["cpu_split"]).freeze
      end

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
