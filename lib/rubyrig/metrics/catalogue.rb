# One set of metric definitions (unit, direction, speed or not, rate, label) and the headline metrics:
# the set a run recorded in run.json when it started, which its reports read forever after, or today's
# code's for a run from before they were recorded (recorded? is false then).
module Rubyrig
  module Metrics
    class Catalogue
      # run.json's "metrics": {"definitions" => {name => {"unit", "higher_is_better", "kind", "rate",
      # "label"}}, "headline" => [name, ...]}.
      def self.from_record(record)
        definitions = record.fetch("definitions").to_h do |name, attrs|
          fields = attrs.slice("unit", "higher_is_better", "rate", "label").transform_keys(&:to_sym)
          [name, Definition.new(name: name, kind: attrs.fetch("kind").to_sym, **fields).freeze]
        end
        new(definitions, headline: record.fetch("headline"), recorded: true)
      end

      attr_reader :definitions, :headline_metrics

      # definitions: name => Definition; headline: the metrics every table shows after the primary one.
      def initialize(definitions, headline:, recorded:)
        @definitions = definitions.freeze
        @headline_metrics = headline.freeze
        @recorded = recorded
        freeze
      end

      # Whether these definitions were read from the run (false: today's code stands in for them).
      def recorded? = @recorded

      # A metric outside the catalogue (e.g. a per-check latency) gets its unit and direction from
      # its name's suffix: _per_s is a rate (higher is better), _s seconds and _bytes bytes (lower).
      def fetch(name)
        definitions.fetch(name) do
          unit, higher, rate = case name
          when /_per_s\z/ then ["1/s", true, true]
          when /_s\z/ then ["s", false, false]
          when /_bytes\z/ then ["B", false, false]
          else ["", false, false]
          end
          Definition.new(name: name, unit: unit, higher_is_better: higher, kind: :resource, rate: rate, label: name).freeze
        end
      end

      def known?(name) = definitions.key?(name)

      # The metrics a table shows after the primary one; a script timed as a whole run also shows the
      # interpreter's boot, which its run time leaves out.
      def headline(primary) = ((primary == "run_s") ? ["boot_s"] : []) + (headline_metrics - [primary])

      # What run.json records.
      def to_record
        {"definitions" => definitions.transform_values { |d| d.to_h.except(:name).transform_keys(&:to_s) },
         "headline" => headline_metrics}
      end
    end
  end
end
