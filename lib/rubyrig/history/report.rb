# What `rubyrig history` shows of a store's series: each series ordered (by time, commit or version),
# cut where the host or the interpreter build changes, its change points (Analysis::ChangePoints, each
# decided by a comparison of the runs on either side), the level of each stretch between them, and
# which are regressions. Pure: the series come in, one frozen Report goes out; formats only render it.
module Rubyrig
  module History
    class Report
      ORDERS = %w[time commit version].freeze
      DEFAULT_ALPHA = 0.05

      # One point of a series: a run (by time), a commit's runs pooled (by commit) or a runtime's runs
      # pooled (by version). number: its 1-based place; values: the ok batch values; interval: the 95%
      # interval of the median, else the batches' range (interval_kind "median" or "range").
      # host: the host's fingerprint (what cuts), host_id: its name (what is shown).
      Mark = Struct.new(:number, :label, :run_ids, :started_at, :host, :host_id, :interpreter, :build, :version, :revision,
        :runtime, :values, :median, :interval, :interval_kind, keyword_init: true)

      # Where a series is cut (index: the first point after it) and why: "host" or "interpreter".
      Cut = Struct.new(:index, :reason, :from, :to, keyword_init: true)

      # A change point as decided: index (the first point after it), before/after (Ranges of points),
      # the ratio after/before with its interval, the verdict, and whether it is a regression.
      # p_value: corrected over the candidates of its stretch; reason: why it is not significant.
      Change = Struct.new(:index, :before, :after, :ratio, :low, :high, :verdict, :p_value, :reason, :regression, keyword_init: true)

      # A stretch of points with no cut and no change point inside (from..to), and its level: the
      # geometric mean of its points' geometric means (the scale the change points are decided on).
      Level = Struct.new(:from, :to, :value, keyword_init: true)

      # One series as shown. runtime: the runtime label (by version: its variants, e.g. "+yjit"); host:
      # the host's name when the series was split by host (see Ordering), else nil.
      # changes: the decided (significant) change points; candidates: the others the search found, whose
      # comparison did not decide a change (shown, never counted); unsearched: why the series was not
      # searched (nil when it was).
      Entry = Struct.new(:workload, :params, :runtime, :host, :metric, :unit, :higher_is_better, :by, :marks, :cuts, :changes,
        :candidates, :levels, :method, :unsearched, keyword_init: true) do
        def title = [workload, Analysis::Section.params_text(params)].reject(&:empty?).join(" · ")

        # The last change point, when it is a decided regression whose later side reaches the newest point.
        def new_regression
          last = changes.last
          last if last&.regression && last.after.end == marks.size - 1
        end
      end

      attr_reader :entries, :by, :alpha, :seed

      def initialize(entries:, by:, alpha:, seed:)
        @entries = entries.freeze
        @by = by
        @alpha = alpha
        @seed = seed
        freeze
      end

      # series: History::Series; by: one of ORDERS; finder: what finds change points (injected in tests).
      def self.build(series, by: "time", alpha: DEFAULT_ALPHA, seed: Analysis::ChangePoints::SEED, finder: Analysis::ChangePoints)
        grouped = Ordering.new(by).marks(series)
        entries = grouped.map { |s, marks, host| entry(s, marks, host, by, alpha, seed, finder) }
        new(entries: entries, by: by, alpha: alpha, seed: seed)
      end

      def self.entry(series, marks, host, by, alpha, seed, finder)
        cuts = cuts_of(marks, by)
        unsearched = unsearchable(marks)
        found = if marks.size < 2 || unsearched then []
        elsif by == "version"
          VersionSteps.of(marks, cuts.map(&:index), higher_is_better: series.higher_is_better, speed: speed?(series), alpha: alpha)
        else
          finder.of(marks.map(&:values), higher_is_better: series.higher_is_better, speed: speed?(series), alpha: alpha, seed: seed,
            breaks: cuts.map(&:index))
        end
        changes = found.map { |cp| change(cp, series.higher_is_better) }
        decided, candidates = changes.partition { |c| Analysis::Verdict.significant?(c.verdict) }
        Entry.new(workload: series.workload, params: series.params, runtime: (by == "version") ? Ordering.variants(series.runtime) : series.runtime,
          host: host, metric: series.metric, unit: series.unit, higher_is_better: series.higher_is_better, by: by, marks: marks.freeze,
          cuts: cuts.freeze, changes: decided.freeze, candidates: candidates.freeze, levels: levels(marks, cuts, decided).freeze,
          method: found.first&.method, unsearched: unsearched).freeze
      end

      # Levels are geometric means: a point without values, or with a value of 0 (a count that did not
      # happen), has none, and the series is shown but not searched.
      def self.unsearchable(marks)
        bad = marks.find { |m| m.values.empty? || m.values.any? { |v| !v.positive? } }
        return nil unless bad
        "not searched for change points: #{bad.values.empty? ? "a point has no ok batch" : "a batch reads 0 or less"} " \
          "(at #{bad.number}), and levels are geometric means"
      end

      # A time or a rate is faster or slower (the series' kind "speed"); any other metric higher or lower.
      def self.speed?(series) = series.kind.to_s == "speed"

      # A new host, or a new interpreter build on the same host, starts a new stretch (by version, the
      # interpreter changing is the axis itself, so only the host cuts).
      def self.cuts_of(marks, by)
        marks.each_cons(2).with_index(1).filter_map do |(a, b), index|
          if a.host != b.host
            Cut.new(index: index, reason: "host", from: a.host_id, to: b.host_id).freeze
          elsif by != "version" && (a.build != b.build || a.interpreter != b.interpreter)
            Cut.new(index: index, reason: "interpreter", from: a.version, to: b.version).freeze
          end
        end
      end

      # cp.runs_before and cp.runs_after: the Ranges of points its comparison took.
      def self.change(cp, higher_is_better)
        Change.new(index: cp.index, before: inclusive(cp.runs_before), after: inclusive(cp.runs_after),
          ratio: cp.ratio, low: cp.low, high: cp.high, verdict: cp.verdict, p_value: cp.p_adjusted, reason: cp.reason,
          regression: regression?(cp.verdict, higher_is_better)).freeze
      end

      def self.inclusive(range) = range.begin..(range.exclude_end? ? range.end - 1 : range.end)

      # Slower, or a non-speed metric moving the worse way (higher memory).
      def self.regression?(verdict, higher_is_better)
        v = Analysis::Verdict
        verdict == v::SLOWER || (verdict == v::HIGHER && !higher_is_better) || (verdict == v::LOWER && higher_is_better)
      end

      def self.levels(marks, cuts, changes)
        bounds = ([0, marks.size] + cuts.map(&:index) + changes.map(&:index)).uniq.sort
        bounds.each_cons(2).map do |from, to|
          value = geometric_mean(marks[from...to].map { |m| geometric_mean(m.values) }.compact)
          Level.new(from: from, to: to - 1, value: value).freeze
        end
      end

      # The scale of every verdict: exp of the mean of the logs (nil without positive values).
      def self.geometric_mean(values)
        values = values.select(&:positive?)
        values.empty? ? nil : Math.exp(values.sum { |x| Math.log(x) } / values.size)
      end

      private_class_method :entry, :unsearchable, :speed?, :cuts_of, :change, :inclusive, :levels, :geometric_mean
    end
  end
end
