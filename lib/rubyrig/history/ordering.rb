# The axis of a history series: by time, each run is a point in the order the runs started; by commit,
# the runs of one revision of the workload's code are pooled into one point, the revisions in the
# order they were first measured; by version, the runtimes of one workload, parameters, metric and set
# of variants become one series, each interpreter version's runs pooled into one point, in version order.
require "time"
require "delegate"

module Rubyrig
  module History
    class Ordering
      def initialize(by)
        @by = by
      end

      # [[series, marks, host]] for Report: series gives the workload, parameters, runtime and metric;
      # host: the host's name when the series was split by host (else nil).
      def marks(series)
        return by_version(series) if @by == "version"
        series.flat_map do |s|
          by_host(s.points.sort_by { |p| time(p) }).map do |host, points|
            groups = (@by == "commit") ? pooled(points, &:revision) : points.each_slice(1).to_a
            [s, numbered(groups), host]
          end
        end
      end

      # A host that comes back after another (shards of merged runs, runners taking turns) would cut
      # the series at every run: then each host is a series of its own. Hosts that follow one another
      # stay one series, cut where the host changed.
      def by_host(points)
        stretches = points.chunk_while { |a, b| a.host == b.host }.map { |c| c.first.host }
        return [[nil, points]] if stretches.uniq.size == stretches.size
        points.group_by(&:host).map { |_, list| [list.first.host_id || list.first.host, list] }
      end

      # A runtime label's variants ("3.3.8+yjit" -> "+yjit"; "" when it has none).
      def self.variants(runtime)
        parts = runtime.to_s.split("+", 2)
        (parts.size == 2) ? "+#{parts[1]}" : ""
      end

      def self.time(point)
        at = point.started_at
        at.is_a?(Time) ? at : Time.parse(at.to_s)
      rescue ArgumentError # an unreadable time sorts first rather than stopping the report
        Time.at(0)
      end

      # Gem::Version when the version reads as one ("3.3.8", "3.4.0-preview1"), else nil (sorted last).
      def self.version(text)
        Gem::Version.new(text.to_s.tr("-", "."))
      rescue ArgumentError
        nil
      end

      private

      def time(point) = self.class.time(point)

      def by_version(series)
        groups = series.group_by { |s| [s.workload, s.params, s.metric, self.class.variants(s.runtime)] }
        groups.values.map do |list|
          points = list.flat_map { |s| s.points.map { |p| Labelled.new(p, s.runtime) } }
          points = points.sort_by { |p| [self.class.version(p.version) ? 0 : 1, self.class.version(p.version) || Gem::Version.new("0"), time(p)] }
          [list.first, numbered(pooled(points) { |p| [p.version, p.build, p.host] }), nil]
        end
      end

      # A point with the label of the runtime it was measured under (by version, runtimes share a series).
      class Labelled < SimpleDelegator
        attr_reader :runtime

        def initialize(point, runtime)
          super(point)
          @runtime = runtime
        end
      end

      # Consecutive points with the same key (revision, or version and host) as one group; points
      # without a revision are left out of a by-commit series.
      def pooled(points, &key)
        points = points.reject { |p| key.call(p).nil? } if @by == "commit"
        order = points.map(&key).uniq
        groups = points.group_by(&key)
        order.map { |k| groups.fetch(k) }
      end

      def numbered(groups)
        groups.each_with_index.map { |points, i| mark(points, i + 1) }
      end

      def mark(points, number)
        last = points.last
        values = points.flat_map(&:values).freeze
        ci = Stats.median_ci(values)
        Report::Mark.new(number: number, label: label(points), run_ids: points.map(&:run_id).freeze, started_at: time(points.first),
          host: last.host, host_id: last.host_id || last.host, interpreter: last.interpreter, build: last.build, version: last.version, revision: last.revision,
          runtime: (last.respond_to?(:runtime) ? last.runtime : nil), values: values, median: Stats.median(values),
          interval: ci || (values.empty? ? nil : [values.min, values.max]), interval_kind: ci ? "median" : "range").freeze
      end

      # "3.3.8", or "3.1.2 (system)" when the runtime's label is not its version.
      def version_label(point)
        base = point.runtime.to_s.split("+", 2).first
        (base == point.version.to_s) ? point.version.to_s : "#{point.version} (#{base})"
      end

      def label(points)
        case @by
        when "commit" then points.first.revision.to_s[0, 7]
        when "version" then version_label(points.first)
        else time(points.first).utc.strftime("%Y-%m-%dT%H:%M")
        end
      end
    end
  end
end
