# Templates that run a sharded experiment on a scheduler a team already has: `rubyrig deploy
# kubernetes` (an Indexed Job) and `rubyrig deploy github-actions` (a matrix workflow with a merge job).
# Deploy.prepare checks the experiment once, here, so that a manifest never starts shards that would
# refuse to run; the templates only print text.
require "json"

module Rubyrig
  module Deploy
    # What every template needs: the experiment file as the shards will name it, a name fit for
    # Kubernetes objects and artifacts, the seed every shard shares, the shard count, and the gate.
    Deployment = Struct.new(:experiment_path, :name, :seed, :shards, :fail_if, keyword_init: true) do
      # The rubyrig command line of one shard (index: a literal or a scheduler's expression).
      def run_argv(shard, results)
        ["rubyrig", "run", experiment_path, "--shard", shard, "--seed", seed.to_s, "--results", results]
      end

      def gate_argv = fail_if.flat_map { |c| ["--fail-if", c] }
    end

    NAME_LIMIT = 40

    module_function

    # path: the experiment file, relative to where the shards run it; seed: nil to take the file's (or
    # draw one, said on err); fail_if: --fail-if conditions for the merge step.
    def prepare(path, shards:, seed:, fail_if: [], err: nil)
      raise UsageError, "--shards must be at least 1, got #{shards}" unless shards.is_a?(Integer) && shards >= 1
      source = Experiment::YamlSource.load(path)
      experiment = Experiment.from_source(source, base_dir: File.dirname(File.expand_path(path)))
      if experiment.decision.until_decided
        raise UsageError, "#{path} runs `until: decided`; shards run a fixed share of the batches, so drop it for a deployment"
      end
      smallest = Experiment::Shard.new(index: shards, count: shards).batches(experiment.batches)
      if smallest < Analysis::Inference::MIN_BATCHES
        raise UsageError, "#{shards} shards of #{experiment.batches} batches per cell leave #{smallest} per shard, and each host needs at least " \
          "#{Analysis::Inference::MIN_BATCHES}: set batches to #{Analysis::Inference::MIN_BATCHES * shards} or more, or use fewer --shards"
      end
      fail_if.each { |c| Analysis::Gate.parse(c) }
      given = seed || (source.data["seed"] if source.data.is_a?(Hash))
      unless given
        given = experiment.seed
        err&.puts("rubyrig: #{path} has no seed; every shard gets --seed #{given} (put `seed: #{given}` in the file to keep it)")
      end
      Deployment.new(experiment_path: path, name: name_of(experiment.name), seed: given, shards: shards, fail_if: fail_if.freeze).freeze
    end

    # A DNS-1123 label: lowercase letters, digits and '-', starting with "rubyrig-".
    def name_of(experiment_name)
      base = experiment_name.to_s.downcase.gsub(/[^a-z0-9]+/, "-").gsub(/\A-+|-+\z/, "")
      "rubyrig-#{base}"[0, NAME_LIMIT].sub(/-+\z/, "")
    end

    # A YAML double-quoted scalar: JSON strings are valid YAML.
    def quote(text) = JSON.generate(text.to_s)

    # A shell command line: words of safe characters (and GitHub's ${{ ... }} expressions) as they are,
    # any other word in single quotes.
    def shell(argv)
      argv.map do |word|
        next word if word.match?(%r{\A(?:[A-Za-z0-9_./:=%@+,-]|\$\{\{ [a-z.]+ \}\})+\z})
        "'#{word.gsub("'", %q('"'"'))}'"
      end.join(" ")
    end
  end
end
