# Splits one decided difference into its components: each batch's cost per unit of work and every
# component per unit (Components), each component compared with the verdicts' own pipeline (Contrasts:
# paired by round where possible, within each host) at the difference's confidence corrected over the
# components (Bonferroni), the share of the difference each additive one accounts for (Share), the
# factors the data decide (Factors), the neighbouring cells and the line (Line).
module Rubyrig
  class Analysis
    module Why
      class Decomposition
        # report: a Report with its comparisons; measured: ok measured trials by cell key.
        def initialize(report, measured)
          @report = report
          @measured = measured
        end

        def explain(comparison)
          base = trials(comparison.baseline, comparison)
          other = trials(comparison.runtime, comparison)
          components = Components.for(comparison.metric)
          alpha = (1 - comparison.confidence) / components.size
          parts = components.map { |component| part(component, comparison, base, other, alpha) }.freeze
          costs = {comparison.baseline => mean_cost(base, comparison.metric), comparison.runtime => mean_cost(other, comparison.metric)}.freeze
          yjit_differs = yjit?(base) != yjit?(other)
          reasons = Factors.chosen(parts, yjit_differs: yjit_differs)
          leading = reasons.empty? ? Factors.leading(parts, yjit_differs: yjit_differs) : nil
          explanation = Explanation.new(cell: cell(comparison.runtime, comparison).key, comparison: comparison,
            unit_word: Components.unit_word(comparison.metric), costs: costs, difference: costs[comparison.runtime] - costs[comparison.baseline],
            parts: parts, reasons: reasons, factors: reasons.map(&:first).uniq.freeze, leading: leading, neighbours: neighbours(comparison),
            observations: (reasons.empty? && leading.nil?) ? Factors.observed(parts, comparison) : [].freeze)
          Explanation.new(**explanation.to_h.merge(line: Line.of(explanation))).freeze
        end

        private

        def cell(runtime, comparison)
          @report.cells.find { |c| c.runtime == runtime && c.workload == comparison.workload && c.params == comparison.params }
        end

        def trials(runtime, comparison) = @measured.fetch(cell(runtime, comparison).key, [])

        def mean_cost(trials, metric)
          costs = trials.filter_map { |t| Components.cost(t.metrics, metric) }
          costs.sum / costs.size
        end

        # True when the probe saw YJIT on in the side's batches.
        def yjit?(trials) = trials.any? { |t| t.facts.to_h["yjit_enabled"] }

        def part(component, comparison, base, other, alpha)
          b = pairs(base, component, comparison.metric)
          o = pairs(other, component, comparison.metric)
          unmeasured = [[comparison.baseline, b], [comparison.runtime, o]].select { |_, values| values.nil? }.map(&:first).freeze
          return Part.new(component: component, unmeasured: unmeasured).freeze unless unmeasured.empty?
          contrast = comparison.to_h.slice(:runtime, :baseline, :workload, :params).merge(base: b.map(&:first), other_values: o.map(&:first),
            base_hosts: hosts(base), other_hosts: hosts(other), base_rounds: base.map(&:round), other_rounds: other.map(&:round))
          compared = Contrasts.decide([contrast], metric: component.name, margin: @report.run.decision.margin(component.name), alpha: alpha).first
          Part.new(component: component, comparison: compared, unmeasured: unmeasured,
            estimate: component.additive ? Share.of(b, o, confidence: 1 - alpha, rounds: [base.map(&:round), other.map(&:round)]) : nil,
            means: {comparison.baseline => Share.mean(b, 0), comparison.runtime => Share.mean(o, 0)}.freeze).freeze
        end

        # [component per unit, cost per unit] of every batch, or nil when a batch did not measure it.
        def pairs(trials, component, metric)
          list = trials.map { |t| [Components.per_unit(t, component, metric), Components.cost(t.metrics, metric)] }
          (list.empty? || list.flatten.any?(&:nil?)) ? nil : list
        end

        def hosts(trials) = trials.map { |t| t.host_id || @report.run.host_id }

        # The same runtime's comparison of the same metric in the cells whose parameters differ in one
        # value: where the gap appears, grows or vanishes.
        def neighbours(comparison)
          @report.comparisons.select do |c|
            c.other.nil? && c.ratio && c.runtime == comparison.runtime && c.workload == comparison.workload &&
              c.metric == comparison.metric && neighbour?(c.params, comparison.params)
          end.freeze
        end

        def neighbour?(params, reference)
          params.keys.sort == reference.keys.sort && params.count { |k, v| reference[k] != v } == 1
        end
      end
    end
  end
end
