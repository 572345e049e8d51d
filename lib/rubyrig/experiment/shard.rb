# One machine's share of a run: shard K of N (K counts from 1). A shard is a whole experiment: every
# cell, interleaved as usual, with its share of the batches, batch numbers of its own (unique across
# the shards of a run) and a seed derived from the run's seed and the shard. Parsed from `--shard K/N`
# or, with `--shard auto`, from the index and count a scheduler puts in the environment.
require "digest"

module Rubyrig
  class Experiment
    Shard = Struct.new(:index, :count, keyword_init: true) do
      def label = "#{index}/#{count}"

      # Batches per cell of this shard: `total` split as evenly as possible, the first shards one more.
      def batches(total) = total / count + ((index <= total % count) ? 1 : 0)

      # The batch number this shard starts at: after every batch of the shards before it.
      def first_number(total) = (1...index).sum { |k| Shard.new(index: k, count: count).batches(total) } + 1

      # The seed of this shard's order, derived from the run's seed: independent orders for the shards,
      # the same order whenever the same shard of the same run is planned again.
      def seed(run_seed) = Digest::SHA256.hexdigest("rubyrig shard #{run_seed} #{index}/#{count}")[0, 8].to_i(16)
    end

    class Shard
      # Where schedulers put the shard: [index variable, count variable or nil, the index of the first shard].
      # A Kubernetes Indexed Job gives only the index: its count is the Job's completions, given as auto/N.
      SOURCES = [
        ["JOB_COMPLETION_INDEX", nil, 0],
        ["CI_NODE_INDEX", "CI_NODE_TOTAL", 1],
        ["BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0]
      ].freeze

      # text: "K/N", "auto" or "auto/N"; env: the environment (Settings#env).
      def self.parse(text, env:)
        case text
        when %r{\A(\d+)/(\d+)\z} then checked(Integer($1, 10), Integer($2, 10), "--shard #{text}")
        when %r{\Aauto(?:/(\d+))?\z} then from_env(env, $1 && Integer($1, 10))
        else raise UsageError, "--shard must be K/N (e.g. 2/4, counting from 1) or auto or auto/N, got '#{text}'"
        end
      end

      def self.from_env(env, given_count)
        name, count_name, first = SOURCES.find { |var, _, _| env[var].to_s.match?(/\A\d+\z/) }
        unless name
          raise UsageError, "--shard auto found no shard index in the environment (#{SOURCES.map(&:first).join(", ")}); give --shard K/N"
        end
        index = Integer(env[name], 10) - first + 1
        count = (count_name && env[count_name].to_s.match?(/\A\d+\z/)) ? Integer(env[count_name], 10) : nil
        if count && given_count && count != given_count
          raise UsageError, "--shard auto/#{given_count} disagrees with #{count_name}=#{count}; give --shard auto"
        end
        count ||= given_count
        raise UsageError, "--shard auto found #{name} but no shard count; give --shard auto/N (N: the Job's completions)" unless count
        checked(index, count, "--shard auto (#{name}=#{env[name]})")
      end

      def self.checked(index, count, given)
        raise UsageError, "#{given}: the count must be at least 1" if count < 1
        raise UsageError, "#{given}: the shard must be between 1 and #{count} (shards count from 1)" unless index.between?(1, count)
        new(index: index, count: count).freeze
      end
    end
  end
end
