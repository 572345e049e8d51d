# Where a series of runs moves (docs/history.md): change points found by E-divisive means on the runs'
# levels, each decided by rubyrig's own comparison of the runs before and after it.
#
# A run's level is the geometric mean of its batch values (exp of the mean of their logs, the scale of
# every verdict). Detection (EDivisive) works on the logs of the levels, with a seeded permutation test
# at alpha. Each candidate is then compared like a runtime with its baseline (Inference.family, Welch t
# on the log levels, Bonferroni over the candidates of the piece): the runs from the previous candidate
# (or the piece's start) to it against the runs from it to the next (or the piece's end). Only a
# significant verdict (faster/slower, higher/lower) makes a change point; the other candidates come back
# flagged (change? false) for the picture. A break (another host, another interpreter build) cuts the
# series: each piece is searched and decided on its own, and a break is never a change point.
#
# API:
#   ChangePoints.of(samples, higher_is_better:, speed: true, alpha: 0.05, margin: 0.02, seed: SEED,
#     breaks: [], permutations: PERMUTATIONS, min_runs: MIN_RUNS) -> [ChangePoint, ...] by index
#   samples: [[Float, ...], ...] one Array of positive batch values per run, in series order; a series
#   with a run that has none, or has a value that is not a positive finite number, cannot be put on
#   the log scale: ChangePoints.refusal(samples) says why (nil when it can), and `of` raises
#   ArgumentError with that line.
module Rubyrig
  class Analysis
    module ChangePoints
      SEED = 36
      PERMUTATIONS = 199
      # The fewest runs on each side of a change point: the fewest a comparison accepts.
      MIN_RUNS = Inference::MIN_BATCHES
      DETECTION = "E-divisive means"

      # index: the first run of the new level (0-based, in the whole series); runs_before, runs_after:
      # the Ranges of run indices compared; level_before, level_after: their geometric means; ratio
      # (after / before), low, high: the interval at `confidence`; verdict: a Verdict word; reason: why
      # it is not significant (nil when it is); p_value (raw) and p_adjusted: the comparison's;
      # permutation_p: the detection's; method: both methods in words.
      ChangePoint = Struct.new(:index, :runs_before, :runs_after, :level_before, :level_after, :ratio, :low, :high,
        :confidence, :verdict, :reason, :p_value, :p_adjusted, :permutation_p, :method, keyword_init: true) do
        def change? = Verdict.significant?(verdict)
      end

      module_function

      def of(samples, higher_is_better:, speed: true, alpha: 0.05, margin: Experiment::Decision::DEFAULT_EQUIVALENCE,
        seed: SEED, breaks: [], permutations: PERMUTATIONS, min_runs: MIN_RUNS)
        levels = levels(samples)
        definition = Metrics::Definition.new(name: "series", unit: "", higher_is_better: higher_is_better, kind: speed ? :speed : :resource)
        rng = Random.new(seed)
        pieces(levels.size, breaks).flat_map do |from, to|
          found = EDivisive.candidates(levels[from...to].map { |v| Math.log(v) }, alpha: alpha, permutations: permutations,
            rng: rng, min_size: min_runs)
          decide(levels, from, to, found, definition, alpha: alpha, margin: margin, permutations: permutations)
        end.sort_by(&:index).freeze
      end

      # Why the series cannot be searched (its first run without a level), or nil.
      def refusal(samples)
        samples.each_with_index do |values, i|
          return "run #{i + 1} has no batch value; a run's level needs one" unless values.is_a?(Array) && !values.empty?
          bad = values.find { |v| !Inference.positive?(v) }
          return "run #{i + 1} has a batch that reported #{bad.inspect}; a ratio needs positive values" unless bad.nil?
        end
        nil
      end

      # Each run's geometric mean.
      def levels(samples)
        refused = refusal(samples)
        raise ArgumentError, refused if refused
        samples.map { |values| Math.exp(values.sum(0.0) { |v| Math.log(v) } / values.size) }
      end

      # [from, to) of each piece between the breaks.
      def pieces(size, breaks)
        cuts = breaks.select { |b| b.is_a?(Integer) && b.positive? && b < size }.uniq.sort
        ([0] + cuts).zip(cuts + [size])
      end

      def decide(levels, from, to, found, definition, alpha:, margin:, permutations:)
        indices = found.map(&:index).sort
        return [] if indices.empty?
        edges = [0] + indices + [to - from]
        segments = indices.each_with_index.map { |index, i| [(edges[i] + from)...(index + from), (index + from)...(edges[i + 2] + from)] }
        contrasts = segments.map { |before, after| {base: levels[before], other: levels[after]} }
        results = Inference.family(contrasts, alpha: alpha, margin: margin)
        indices.zip(segments, results).map do |index, (before, after), result|
          p_found = found.find { |c| c.index == index }.p_value
          point(index + from, before, after, result, levels, definition, p_found, permutations)
        end
      end

      def point(index, before, after, result, levels, definition, permutation_p, permutations)
        level = ->(range) { Math.exp(levels[range].sum(0.0) { |v| Math.log(v) } / range.size) }
        low, high = result.ci
        ChangePoint.new(index: index, runs_before: before, runs_after: after, level_before: level.call(before),
          level_after: level.call(after), ratio: result.ratio, low: low, high: high, confidence: result.confidence,
          verdict: Verdict.word(result.decision, definition), reason: result.reason, p_value: result.p_value,
          p_adjusted: result.p_adjusted, permutation_p: permutation_p,
          method: "#{DETECTION} (#{permutations} permutations) on the runs' geometric means; #{result.method} of the runs").freeze
      end
    end
  end
end
