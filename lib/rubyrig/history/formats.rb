# The formats `rubyrig history` writes, by name, and the filters it selects series with: each
# renderer takes a History::Report and returns text.
module Rubyrig
  module History
    module Formats
      NAMES = %w[text markdown json html].freeze

      module_function

      def render(report, format, color: false, runs: false)
        case format
        when "markdown" then Markdown.new(report).render
        when "json" then Json.new(report).render
        when "html" then Html.new(report).render
        else Text.new(report, color: color, runs: runs).render
        end
      end

      # The series that pass the filters: workloads, metrics and runtimes (each a list; empty: any).
      # Without a metric filter only each workload's primary metric; "all" among the metrics: every one.
      def select(series, workloads: [], metrics: [], runtimes: [])
        series.select do |s|
          (workloads.empty? || workloads.include?(s.workload)) &&
            (runtimes.empty? || runtimes.include?(s.runtime)) &&
            (metrics.empty? ? s.primary : (metrics.include?("all") || metrics.include?(s.metric)))
        end
      end

      # The series with only the runs started at or after `time` (a Time; nil keeps every run); a
      # series left without runs is dropped.
      def since(series, time)
        return series if time.nil?
        series.filter_map do |s|
          points = s.points.select { |p| Ordering.time(p) >= time }
          s.class.new(**s.to_h, points: points) unless points.empty?
        end
      end

      # What a filter could have named: [the values in the history, the flag], for a one-line error.
      def unknown(series, workloads: [], metrics: [], runtimes: [])
        {"--workload" => [workloads, series.map(&:workload)], "--metric" => [metrics - ["all"], series.map(&:metric)],
         "--runtime" => [runtimes, series.map(&:runtime)]}.each do |flag, (given, known)|
          missing = given - known
          return [flag, missing.first, known.uniq.sort] unless missing.empty?
        end
        nil
      end
    end
  end
end
