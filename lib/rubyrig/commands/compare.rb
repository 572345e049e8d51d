# `rubyrig compare -r A -r B -- WORKLOAD`: an experiment from the command line, without a file.
module Rubyrig
  module Commands
    class Compare < Base
      BANNER = <<~TEXT
        Usage: rubyrig compare -r RUNTIME -r RUNTIME [options] -- WORKLOAD [ARGS...]

        WORKLOAD is builtin:NAME (see `rubyrig workloads`), a Ruby file and its arguments (script
        workload, run through the in-process harness; without Rubyrig.bench the whole run is timed; a
        ruby-bench benchmark runs through rubyrig's ruby-bench harness, a benchmark-ips file measures
        each report item apart), a ruby-bench checkout (every benchmark a cell; --param bench=NAME,...
        picks benchmarks or categories: headline, other, micro, ractor, all, the default), a config.ru
        or Rails app directory (http workload under Puma, loaded by wrk), or any command line (command
        workload, timed from outside).
        RUNTIME is [LABEL=]BASE[+variant...]: BASE is system, a version (3.3.8, 3.3), jruby or a path;
        variants are %<variants>s. The first -r is the baseline.

        Example: rubyrig compare -r system -r system+yjit --param steps=10000,20000 -- builtin:nbody

        Options:
      TEXT

      # Which flag gave each value of the experiment it builds, for errors that name the flag.
      FLAGS = {
        ["runtimes"] => "-r", ["baseline"] => "--baseline", ["batches"] => "--batches", ["seed"] => "--seed",
        ["cpus"] => "--cpus", ["timeout_s"] => "--timeout", ["name"] => "--name", ["trace"] => "--trace",
        ["profile"] => "--profile", ["workloads", 0, "params"] => "--param", ["workloads", 0, "iterations"] => "--iterations",
        ["workloads", 0, "warmup"] => "--warmup", ["workloads", 0, "duration_s"] => "--duration-s",
        ["workloads", 0, "warmup_s"] => "--warmup-s", ["equivalence"] => "--equivalence", ["until"] => "--until",
        ["max_batches"] => "--max-batches", ["max_time"] => "--max-time", ["inherit_env"] => "--inherit-env",
        ["workloads", 0, "load_model"] => "--load-model"
      }.freeze

      def call
        @raw = {"runtimes" => [], "batches" => Experiment::DEFAULT_BATCHES}
        @inherit = []
        @params = {}
        @workload = {}
        rest = parse(parser)
        return CLI::EXIT_OK unless rest
        experiment = Experiment.from_data(raw_experiment(rest), flags: FLAGS)
        dir = @dir || default_results_dir(experiment.name)
        command_line = ["rubyrig", "compare", *@argv_original]
        execute(dir) { runner(experiment, @raw).start(dir, command: "compare", command_line: command_line) }
      end

      def initialize(argv, settings)
        super
        @argv_original = argv.dup
      end

      private

      def parser
        OptionParser.new do |opts|
          opts.banner = format(BANNER, variants: Rubyrig::Runtimes::Variants.help)
          opts.on("-r", "--runtime SPEC", "a runtime to compare (repeat; at least one)") { |r| @raw["runtimes"] << r }
          opts.on("--baseline LABEL", "the runtime the others are compared to (default: the first -r)") { |b| @raw["baseline"] = b }
          opts.on("-b", "--batches N", Integer, "fresh-process batches per cell (default: #{Experiment::DEFAULT_BATCHES})") { |n| @raw["batches"] = n }
          workload_options(opts)
          opts.on("--seed N", Integer, "seed of the randomized batch order (default: random, recorded)") { |n| @raw["seed"] = n }
          opts.on("--cpus LIST", "pin measured processes to these CPUs, e.g. 1 or 0-1 (default: no pinning)") { |c| @raw["cpus"] = cpu_list("--cpus", c) }
          cpu_split_options(opts)
          inherit_env_option(opts, @inherit)
          opts.on("--timeout SECONDS", Float, "deadline per batch (default: #{Experiment::DEFAULT_TIMEOUT_S})") { |t| @raw["timeout_s"] = t }
          opts.on("--name NAME", "name of the run (default: the workload's name)") { |n| @raw["name"] = n }
          opts.on("--results DIR", "where the run is kept (default: ./rubyrig-results/<timestamp>-<name>)") { |d| @dir = d }
          diagnostics_options(opts, @raw)
          decision_options(opts, @raw)
          export_options(opts)
        end
      end

      def workload_options(opts)
        opts.on("-p", "--param NAME=V1,V2", "a workload parameter; a list makes a matrix (repeatable)") { |text| param(text) }
        opts.on("--iterations N", Integer, "measured iterations per batch for scripts (default: the workload's, else 10; ruby-bench: MIN_BENCH_ITRS, and MIN_BENCH_TIME 0)") { |n| @workload["iterations"] = n }
        opts.on("--warmup N", Integer, "warmup iterations per batch for scripts (default: the workload's, else 2; ruby-bench: WARMUP_ITRS, else 15)") { |n| @workload["warmup"] = n }
        opts.on("--duration-s N", Float, "http: measured seconds of load per batch (default: 10); benchmark-ips: seconds per item (default: the file's, else 5); ruby-bench: least measured seconds per batch (default: none)") { |n| @workload["duration_s"] = whole_or_fraction(n) }
        opts.on("--load-model MODEL", "http: closed (connections, the default) or open (Poisson arrivals at --param rate=R,...)") { |m| @workload["load_model"] = m }
        opts.on("--warmup-s N", Float, "http: seconds of warmup load per batch, before the measured run (default: 5); benchmark-ips: warmup seconds per item (default: the file's, else 2); ruby-bench: least warmup CPU seconds per batch (default: none)") { |n| @workload["warmup_s"] = whole_or_fraction(n) }
      end

      def param(text)
        key, values = text.split("=", 2)
        raise UsageError, "--param needs NAME=VALUE[,VALUE...], got '#{text}'" if values.nil? || key.empty?
        list = values.split(",", -1)
        raise UsageError, "--param #{key} has an empty value in '#{text}'; write e.g. --param #{key}=1,2" if list.empty? || list.any?(&:empty?)
        @params[key] = list.map { |v| typed(v) }
      end

      # The experiment the flags and the workload after -- describe, as an experiment file would hold it.
      def raw_experiment(rest)
        raise UsageError, "give at least one runtime with -r, e.g. -r system -r system+yjit" if @raw["runtimes"].empty?
        raise UsageError, "give the workload after --, e.g. -- builtin:nbody" if rest.empty?
        kind, entry = target(rest)
        @workload.merge!(entry)
        @workload["params"] = @params unless @params.empty?
        @raw["workloads"] = [@workload]
        @raw["inherit_env"] = @inherit unless @inherit.empty?
        @raw["name"] ||= @workload["builtin"] || kind.run_name(@workload)
        @raw
      end

      # [the kind, the workload entry] of the arguments after --: a built-in by name, else the entry of
      # the first kind whose shortcut takes them (Kinds::Contract#shortcut).
      def target(rest)
        return [nil, {"builtin" => rest.first.delete_prefix(Experiment::Builtins::PREFIX)}] if rest.size == 1 && Experiment::Builtins.builtin?(rest.first)
        Kinds.all.each do |kind|
          entry = kind.shortcut(rest)
          return [kind, entry] if entry
        end
        raise UsageError, "no workload kind takes #{rest.join(" ")}; see rubyrig compare --help"
      end

      # Seconds as given: 2 stays the whole number wrk needs, 0.5 the fraction benchmark-ips accepts.
      def whole_or_fraction(seconds) = (seconds == seconds.floor) ? seconds.to_i : seconds

      def typed(text)
        case text
        when /\A-?\d+\z/ then Integer(text, 10)
        when /\A-?\d+\.\d+\z/ then Float(text)
        else text
        end
      end
    end
  end
end
