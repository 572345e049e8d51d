# `rubyrig history --fail-if regressed`: the series whose last change point is a decided regression
# (slower, or a memory or count metric moving the worse way) with the newest points on its later side,
# each as one line saying which.
module Rubyrig
  module History
    module Gate
      CONDITIONS = %w[regressed].freeze

      module_function

      def parse(condition)
        return condition if CONDITIONS.include?(condition)
        raise UsageError, "--fail-if for history must be one of #{CONDITIONS.join(", ")}, got '#{condition}'"
      end

      # One line per series with a new regression (empty: the gate passes).
      def failures(report, conditions)
        return [] if conditions.empty?
        report.entries.filter_map do |entry|
          change = entry.new_regression
          "new regression: #{Phrase.series(entry)}: #{Phrase.change(entry, change)}" if change
        end
      end
    end
  end
end
