# The decision rules of an experiment from its top level: the equivalence margin (one, or per metric),
# `until: decided` with its limits (max_batches, max_time), checked against the batches.
module Rubyrig
  class Experiment
    class DecisionLoader
      def initialize(fields)
        @fields = fields
      end

      def decision
        equivalence, by_metric = equivalence(@fields["equivalence"])
        until_decided = !@fields.one_of("until", %w[decided]).nil?
        batches = @fields["batches"] || Experiment::DEFAULT_BATCHES
        if until_decided && batches.is_a?(Integer) && batches < Analysis::Inference::MIN_BATCHES
          @fields.fail(["batches"], "is #{batches}; `until: decided` starts from at least #{Analysis::Inference::MIN_BATCHES} batches per cell")
        end
        Decision.new(equivalence: equivalence, equivalence_by_metric: by_metric.freeze, until_decided: until_decided,
          max_batches: max_batches(until_decided, batches), max_time_s: max_time_s(until_decided)).freeze
      end

      private

      def max_batches(until_decided, batches)
        max_batches = @fields.positive_integer("max_batches", max: Experiment::MAX_BATCHES)
        if max_batches && !until_decided
          @fields.fail(["max_batches"], "needs `until: decided` (without it every cell gets exactly `batches`)")
        end
        max_batches ||= [Decision::DEFAULT_MAX_BATCHES, batches].max if until_decided
        if max_batches && batches.is_a?(Integer) && max_batches < batches
          @fields.fail(["max_batches"], "is #{max_batches}, below batches #{batches}; the run starts with `batches` and adds rounds up to max_batches")
        end
        max_batches
      end

      def max_time_s(until_decided)
        value = @fields["max_time"]
        return nil if value.nil?
        @fields.fail(["max_time"], "needs `until: decided`") unless until_decided
        Decision.duration_s(value) || @fields.fail(["max_time"], "must be a duration such as 90s, 30m or 1h30m, got #{value.inspect}")
      end

      # `equivalence: 2%`, or per metric `equivalence: {default: 2%, peak_rss_bytes: 5%}`.
      def equivalence(value)
        return [Decision::DEFAULT_EQUIVALENCE, {}] if value.nil?
        unless value.is_a?(Hash)
          return [Decision.percent(value) || @fields.fail(["equivalence"], "must be a percentage such as 2% (or a mapping of metric to percentage), got #{value.inspect}"), {}]
        end
        margins = value.to_h do |metric, pct|
          margin = Decision.percent(pct) || @fields.fail(["equivalence", metric], "must be a percentage such as 2%, got #{pct.inspect}")
          unless metric == "default" || Metrics.known?(metric.to_s) || metric.to_s.match?(/_(per_s|s|bytes)\z/)
            @fields.fail(["equivalence", metric], "is not a metric; #{Suggest.hint(metric, ["default", *Metrics.catalogue.keys])}", own_name: false)
          end
          [metric.to_s, margin]
        end
        [margins.delete("default") || Decision::DEFAULT_EQUIVALENCE, margins]
      end
    end
  end
end
