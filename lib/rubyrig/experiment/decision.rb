# How an experiment's comparisons are decided: the equivalence margin (a default and per metric), and
# whether rounds are added until every primary comparison is decided (faster, slower or equivalent),
# up to a number of batches per cell or a time. Parses the percentages and durations people write.
module Rubyrig
  class Experiment
    Decision = Struct.new(:equivalence, :equivalence_by_metric, :until_decided, :max_batches, :max_time_s,
      keyword_init: true) do
      def margin(metric) = equivalence_by_metric.fetch(metric, equivalence)

      def to_h
        {"equivalence" => equivalence, "equivalence_by_metric" => equivalence_by_metric,
         "until" => until_decided ? "decided" : nil, "max_batches" => max_batches, "max_time_s" => max_time_s}
      end
    end

    class Decision
      DEFAULT_EQUIVALENCE = 0.02
      DEFAULT_MAX_BATCHES = 30
      DURATION = /\A(?:(?<h>\d+(?:\.\d+)?)h)?(?:(?<m>\d+(?:\.\d+)?)m)?(?:(?<s>\d+(?:\.\d+)?)s?)?\z/

      def self.default = new(equivalence: DEFAULT_EQUIVALENCE, equivalence_by_metric: {}.freeze,
        until_decided: false, max_batches: nil, max_time_s: nil).freeze

      # "2%", "2" or 2 => 0.02; nil when it is not a percentage from 0 (excluded) to 100.
      def self.percent(value)
        text = value.to_s.strip.delete_suffix("%").strip
        return nil unless text.match?(/\A\d+(\.\d+)?\z/)
        number = Float(text)
        (number.positive? && number < 100) ? number / 100.0 : nil
      end

      # "90s", "30m", "1h30m", "2h" or a number of seconds => seconds; nil when it is none of these.
      def self.duration_s(value)
        return value.to_f if value.is_a?(Numeric) && value.positive?
        m = DURATION.match(value.to_s.strip)
        return nil unless m && !value.to_s.strip.empty?
        seconds = m[:h].to_f * 3600 + m[:m].to_f * 60 + m[:s].to_f
        seconds.positive? ? seconds : nil
      end
    end
  end
end
