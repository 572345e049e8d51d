# `rubyrig deploy kubernetes|github-actions EXPERIMENT.yml --shards N`: prints a manifest or workflow
# that runs the experiment in shards on a scheduler the team already has, and merges them.
module Rubyrig
  module Commands
    class Deploy < Base
      TARGETS = %w[kubernetes github-actions].freeze

      BANNER = <<~TEXT
        Usage: rubyrig deploy kubernetes EXPERIMENT.yml --shards N --image IMAGE [options]
               rubyrig deploy github-actions EXPERIMENT.yml --shards N [options]

        Prints a Kubernetes Indexed Job (--merge: the Job that merges its shards) or a GitHub Actions
        workflow that runs EXPERIMENT.yml in N shards, one per machine, merged with the host as a block;
        EXPERIMENT.yml is relative to where the shards run (--workdir, or the repository's root).

        Options:
      TEXT

      def call
        target = @argv.first
        if target && !target.start_with?("-") && !TARGETS.include?(target)
          raise UsageError, "unknown deploy target '#{target}'; #{Suggest.hint(target, TARGETS, fallback: "use kubernetes or github-actions")}"
        end
        @argv = @argv.drop(1) if target && TARGETS.include?(target)
        options = {shards: nil, seed: nil, fail_if: [], image: nil, cpu: "2", memory: "4Gi", storage: "1Gi", volume_claim: nil,
                   workdir: "/app", merge: false, runs_on: "ubuntu-latest", ruby: "3.3", history: true}
        parser = option_parser(options)
        rest = parse(parser)
        return CLI::EXIT_OK unless rest
        if target.nil? || !TARGETS.include?(target) || rest.size != 1
          out.puts(parser.help)
          return CLI::EXIT_USAGE
        end
        raise UsageError, "give --shards N, the number of machines to split the run over" unless options[:shards]
        out.print((target == "kubernetes") ? kubernetes(rest.first, options) : github_actions(rest.first, options))
        CLI::EXIT_OK
      end

      private

      def option_parser(options)
        OptionParser.new do |opts|
          opts.banner = BANNER
          opts.on("--shards N", Integer, "how many shards (machines) the run is split into (required)") { |n| options[:shards] = n }
          opts.on("--seed N", Integer, "the seed every shard shares (default: the file's seed, else a new one, printed)") { |n| options[:seed] = n }
          opts.on("--fail-if CONDITION", "gate the merge: exit 3 when a primary comparison is slower, slower:PCT% or inconclusive " \
            "(repeatable; default for github-actions: slower; for kubernetes: none)") { |c| options[:fail_if] << c }
          opts.separator("\nkubernetes:")
          opts.on("--image IMAGE", "the container image that holds rubyrig, the interpreters and the experiment (required)") { |i| options[:image] = i }
          opts.on("--cpu QUANTITY", "CPU request and limit of each shard's pod, equal for a Guaranteed QoS class (default: 2)") { |c| options[:cpu] = c }
          opts.on("--memory QUANTITY", "memory request and limit of each shard's pod (default: 4Gi)") { |m| options[:memory] = m }
          opts.on("--volume-claim NAME", "an existing ReadWriteMany claim for the results (default: declare <name>-results)") { |v| options[:volume_claim] = v }
          opts.on("--storage QUANTITY", "the size of the declared claim (default: 1Gi)") { |s| options[:storage] = s }
          opts.on("--workdir DIR", "the image's directory the experiment path is relative to (default: /app)") { |d| options[:workdir] = d }
          opts.on("--merge", "print the Job that merges the shards on the claim instead (default: the shards' Job)") { options[:merge] = true }
          opts.separator("\ngithub-actions:")
          opts.on("--runs-on LABEL", "the runner label of every job (default: ubuntu-latest)") { |l| options[:runs_on] = l }
          opts.on("--ruby VERSION", "the Ruby ruby/setup-ruby installs to run rubyrig from the Gemfile (default: 3.3)") { |r| options[:ruby] = r }
          opts.on("--no-history", "leave out the history steps (default: keep a history in the Actions cache, gate on a new regression)") { options[:history] = false }
        end
      end

      def kubernetes(path, o)
        raise UsageError, "give --image IMAGE, the container image that holds rubyrig, the interpreters and the experiment" unless o[:image]
        deployment = Rubyrig::Deploy.prepare(path, shards: o[:shards], seed: o[:seed], fail_if: o[:fail_if], err: err)
        k8s = Rubyrig::Deploy::Kubernetes.new(deployment, image: o[:image], cpu: o[:cpu], memory: o[:memory], storage: o[:storage],
          volume_claim: o[:volume_claim], workdir: o[:workdir])
        o[:merge] ? k8s.merge_job : k8s.manifest
      end

      def github_actions(path, o)
        gate = o[:fail_if].empty? ? ["slower"] : o[:fail_if]
        deployment = Rubyrig::Deploy.prepare(path, shards: o[:shards], seed: o[:seed], fail_if: gate, err: err)
        Rubyrig::Deploy::GithubActions.new(deployment, runs_on: o[:runs_on], ruby: o[:ruby], history: o[:history]).workflow
      end
    end
  end
end
