# `rubyrig run FILE` runs an experiment file; `rubyrig run --resume DIR` completes an interrupted run.
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
        dir = nil
        resume = nil
        overrides = {}
        parser = OptionParser.new do |opts|
          opts.banner = BANNER
          opts.on("--resume DIR", "complete the batches an interrupted run did not finish") { |d| resume = d }
          opts.on("--results DIR", "where the run is kept (default: ./rubyrig-results/<timestamp>-<name>)") { |d| dir = d }
          opts.on("-b", "--batches N", Integer, "override the file's batches per cell (file default: #{Experiment::DEFAULT_BATCHES})") { |n| overrides["batches"] = n }
          opts.on("--seed N", Integer, "override the file's seed (default: random, recorded)") { |n| overrides["seed"] = n }
          opts.on("--cpus LIST", "pin measured processes to these CPUs, e.g. 1 (default: the file's cpus, else none)") { |c| overrides["cpus"] = cpu_list("--cpus", c) }
          diagnostics_options(opts, overrides)
          decision_options(opts, overrides)
          cpu_split_options(opts)
          export_options(opts)
        end
        command_line = ["rubyrig", "run", *@argv]
        rest = parse(parser)
        return CLI::EXIT_OK unless rest
        return resume_run(resume) if resume
        if rest.size != 1
          out.puts(parser.help)
          return rest.empty? ? CLI::EXIT_USAGE : raise(UsageError, "give exactly one experiment file, got #{rest.size}")
        end
        path = rest.first
        source = YamlSource.load(path)
        # Overrides lose the file's line numbers in messages, so they are applied only when given.
        if overrides.any? && source.data.is_a?(Hash)
          flags = {"batches" => "--batches", "seed" => "--seed", "cpus" => "--cpus", "trace" => "--trace", "profile" => "--profile",
                   "max_batches" => "--max-batches", "max_time" => "--max-time"}
          source = YamlSource.from_data(source.data.merge(overrides), path, flags: overrides.keys.to_h { |k| [[k], flags.fetch(k, "--#{k}")] })
        end
        experiment = Experiment.from_source(source, base_dir: File.dirname(File.expand_path(path)))
        raw = source.data
        dir ||= default_results_dir(experiment.name)
        execute(dir) { runner(experiment, raw).start(dir, command: "run", command_line: command_line) }
      end

      private

      # The experiment and the http CPU split come from the run itself; a flag given now wins.
      def resume_run(dir)
        store = Store.open(dir)
        run = RunMeta.new(store.meta)
        experiment = Experiment.from_data(run.experiment, label: "#{dir}/run.json",
          base_dir: run.experiment_base_dir || Dir.pwd)
        @settings.server_cpus ||= run.cpu_settings.server_cpus
        @settings.load_cpus ||= run.cpu_settings.load_cpus
        execute(dir) { runner(experiment, run.experiment).resume(store) }
      end
    end
  end
end
