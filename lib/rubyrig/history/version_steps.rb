# By version, a series has a point per interpreter version, often only two or three: too few for a
# change-point search, which needs two points on each side. Each step from one version to the next
# (within a host) is compared instead, on the two points' batches, by the comparison every verdict
# uses (Analysis::Inference: Welch t on log values, Bonferroni over the steps of the series), as a
# run's own report compares its runtimes. Batches pooled from several runs understate the noise between
# runs; docs/history.md says so.
module Rubyrig
  module History
    module VersionSteps
      # Shaped like Analysis::ChangePoints::ChangePoint, so that Report treats both alike.
      Step = Struct.new(:index, :runs_before, :runs_after, :ratio, :low, :high, :verdict, :reason, :p_value, :p_adjusted,
        :method, keyword_init: true)

      module_function

      # marks: the series' points in version order; breaks: the indices where a new host starts.
      def of(marks, breaks, higher_is_better:, speed:, alpha:)
        indices = (1...marks.size).reject { |i| breaks.include?(i) }
        return [] if indices.empty?
        definition = Metrics::Definition.new(name: "series", unit: "", higher_is_better: higher_is_better, kind: speed ? :speed : :resource)
        results = Analysis::Inference.family(indices.map { |i| {base: marks[i - 1].values, other: marks[i].values} }, alpha: alpha)
        indices.zip(results).map do |i, result|
          low, high = result.ci
          Step.new(index: i, runs_before: (i - 1)...i, runs_after: i...(i + 1), ratio: result.ratio, low: low, high: high,
            verdict: Analysis::Verdict.word(result.decision, definition), reason: result.reason, p_value: result.p_value,
            p_adjusted: result.p_adjusted, method: "#{result.method} of each version's batches against the version before").freeze
        end
      end
    end
  end
end
