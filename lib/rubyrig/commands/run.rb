# `rubyrig run FILE` runs an experiment file, or one shard of it (--shard); `rubyrig run --resume DIR`
# completes an interrupted run.
module Rubyrig
  module Commands
    class Run < Base
      BANNER = <<~TEXT
        Usage: rubyrig run EXPERIMENT.yml [options]
               rubyrig run --resume DIR [options]

        The experiment file format is described in docs/experiment-format.md.

        Options:
      TEXT

      def call
        @overrides = {}
        @inherit = []
        parser = option_parser
        command_line = ["rubyrig", "run", *@argv]
        rest = parse(parser)
        return CLI::EXIT_OK unless rest
        return resume_run(@resume) if @resume
        if rest.size != 1
          out.puts(parser.help)
          return rest.empty? ? CLI::EXIT_USAGE : raise(UsageError, "give exactly one experiment file, got #{rest.size}")
        end
        path = rest.first
        source = source_with_overrides(path)
        experiment = Experiment.from_source(source, base_dir: File.dirname(File.expand_path(path)))
        raw = source.data
        check_shard!(@shard, experiment, raw, path) if @shard
        dir = @dir || default_results_dir(@shard ? "#{experiment.name}-shard-#{@shard.index}-of-#{@shard.count}" : experiment.name)
        recorded(dir, execute(dir) { runner(experiment, raw).start(dir, command: "run", command_line: command_line, shard: @shard) })
      end

      private

      def option_parser
        OptionParser.new do |opts|
          opts.banner = BANNER
          opts.on("--resume DIR", "complete the batches an interrupted run did not finish") { |d| @resume = d }
          opts.on("--results DIR", "where the run is kept (default: ./rubyrig-results/<timestamp>-<name>)") { |d| @dir = d }
          opts.on("--history DIR", "add the finished run to this history, created if new; give it again with --resume (default: none)") { |d| @history = history(d) }
          opts.on("-b", "--batches N", Integer, "override the file's batches per cell (file default: #{Experiment::DEFAULT_BATCHES})") { |n| @overrides["batches"] = n }
          opts.on("--seed N", Integer, "override the file's seed (default: random, recorded)") { |n| @overrides["seed"] = n }
          opts.on("--cpus LIST", "pin measured processes to these CPUs, e.g. 1 (default: the file's cpus, else none)") { |c| @overrides["cpus"] = cpu_list("--cpus", c) }
          opts.on("--shard K/N", "run shard K of N (from 1): every cell, its share of the batches, its own seed; auto or auto/N " \
            "reads the index (and count) from JOB_COMPLETION_INDEX, CI_NODE_INDEX/CI_NODE_TOTAL or BUILDKITE_PARALLEL_JOB(_COUNT) " \
            "(default: the whole run); merge the shards with `rubyrig merge`") { |s| @shard = Experiment::Shard.parse(s, env: @settings.env) }
          opts.on("--host-id ID", "the host the batches are recorded under, a block of the statistics when shards are merged " \
            "(default: RUBYRIG_HOST_ID, else the hostname)") { |id| @settings.host_id = host_id(id) }
          diagnostics_options(opts, @overrides)
          decision_options(opts, @overrides)
          cpu_split_options(opts)
          inherit_env_option(opts, @inherit)
          export_options(opts)
        end
      end

      # The experiment file, with the flags that override its keys. Overrides lose the file's line
      # numbers in messages, so they are applied only when given.
      def source_with_overrides(path)
        source = Experiment::YamlSource.load(path)
        unless @inherit.empty?
          given = source.data.is_a?(Hash) ? source.data["inherit_env"] : nil
          @overrides["inherit_env"] = given.is_a?(Array) ? (given + @inherit).uniq : @inherit
        end
        return source unless @overrides.any? && source.data.is_a?(Hash)
        flags = {"batches" => "--batches", "seed" => "--seed", "cpus" => "--cpus", "trace" => "--trace", "profile" => "--profile",
                 "max_batches" => "--max-batches", "max_time" => "--max-time", "inherit_env" => "--inherit-env"}
        Experiment::YamlSource.from_data(source.data.merge(@overrides), path, flags: @overrides.keys.to_h { |k| [[k], flags.fetch(k, "--#{k}")] })
      end

      def host_id(text)
        return text if text.match?(/\A[A-Za-z0-9][A-Za-z0-9_.:-]{0,62}\z/)
        raise UsageError, "--host-id must be 1 to 63 letters, digits, '.', '_', ':' or '-', got '#{text}'"
      end

      # Every shard must plan from the same seed, and each host needs enough batches per cell of its own.
      def check_shard!(shard, experiment, raw, path)
        unless raw.is_a?(Hash) && raw.key?("seed")
          raise UsageError, "--shard needs the run's seed, the same on every shard: add `seed:` to #{path} or give --seed N"
        end
        if experiment.decision.until_decided
          raise UsageError, "--shard runs a fixed share of the batches; drop --until decided (or `until:`) from sharded runs"
        end
        share = shard.batches(experiment.batches)
        return if share >= Analysis::Inference::MIN_BATCHES
        most = experiment.batches / Analysis::Inference::MIN_BATCHES
        raise UsageError, "shard #{shard.label} would run #{share} of #{experiment.batches} batches per cell, and each host needs at least " \
          "#{Analysis::Inference::MIN_BATCHES}: raise batches to #{Analysis::Inference::MIN_BATCHES * shard.count} or use at most #{[most, 1].max} shards"
      end

      # The experiment and the http CPU split come from the run itself; a flag given now wins.
      def resume_run(dir)
        store = Results::Store.open(dir)
        run = store.run
        if run.merged?
          raise UsageError, "#{dir} is a merge of shards; resume the shard that did not finish (rubyrig run --resume SHARD_DIR), then merge again"
        end
        experiment = Experiment.from_data(run.experiment, label: "#{dir}/run.json",
          base_dir: run.experiment_base_dir || Dir.pwd)
        @settings.server_cpus ||= run.cpu_settings.server_cpus
        @settings.load_cpus ||= run.cpu_settings.load_cpus
        recorded(dir, execute(dir) { runner(experiment, run.experiment).resume(store) })
      end

      # A history that cannot take the run is refused before the run, not after it.
      def history(path)
        History::Store.new(path).check!
        path
      end

      # Adds the run to --history once it finished (a gate that failed or a failed batch included, not
      # an interrupted run), and returns the run's exit status.
      def recorded(dir, status)
        return status unless @history && status != CLI::EXIT_INTERRUPTED
        added = History::Store.new(@history).add(dir)
        out.puts(Printable.line("History: #{@history} (#{added.zero? ? "the run was already in it" : "#{added} series points added"})"))
        status
      end
    end
  end
end
