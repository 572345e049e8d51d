# Whether each cell's measured iterations were in a steady state, and when each batch got there. Per
# batch: the trend of its measured iterations (the least-squares change of log time from the first to
# the last, which a step in the middle moves too, and the shift from the first quarter to the rest, a
# step near the start) and where its whole series, warmup kept, settles. Per cell: each trend
# statistic tested against 0 across the batches (fresh processes, so correlation between neighbouring
# iterations cannot narrow the interval), Bonferroni over both statistics of every checked cell, and
# called trending only when decided and at least MIN_CHANGE over the window. docs/steady-state.md
# gives the method and the simulation of its false warning rate. Pure.
module Rubyrig
  class Analysis
    module SteadyState
      MIN_ITERATIONS = 4
      MIN_BATCHES = 3
      MIN_CHANGE = 0.02
      # A series settles at the first iteration inside the band around the level of its final third
      # (SETTLE_SDS times that third's noise, at least SETTLE_BAND) after the median of
      # SETTLE_WINDOW neighbouring iterations last left it.
      MIN_SERIES = 6
      SETTLE_WINDOW = 3
      SETTLE_SDS = 3.0
      SETTLE_BAND = 0.05

      # A statistic over a cell's batches: the mean change over the window as a fraction of the time
      # (+0.08 = iterations got 8% slower), its corrected interval and p-value, and whether it is decided.
      Trend = Struct.new(:change, :ci, :p_adjusted, :decided, keyword_init: true)

      # Where a cell's batches settled: how many had a series long enough, how many settled (before
      # the last third), and over those the median iterations and seconds to it with their range.
      Settle = Struct.new(:batches, :reached, :iterations, :seconds, :seconds_range, :warmup_iterations, keyword_init: true)

      Cell = Struct.new(:cell_key, :runtime, :workload, :params, :batches, :iterations, :checked, :reason, :slope, :early_shift,
        :trending, :settle, keyword_init: true)

      module_function

      # cells: the report's cells; measured: their ok measured trials by key. Cells without
      # per-iteration samples are left out.
      def of(cells, measured, alpha: 0.05)
        stats = cells.filter_map do |cell|
          series = measured.fetch(cell.key, []).filter_map { |t| series(t) }
          [cell, series] unless series.empty?
        end
        checked = stats.count { |_, series| reason(series).nil? }
        stats.map { |cell, series| cell_result(cell, series, alpha, [2 * checked, 1].max) }.freeze
      end

      # A trial's warmup and measured iteration times, or nil without measured ones.
      def series(trial)
        samples = trial.samples || {}
        times = samples["iterations_s"]
        return unless times.is_a?(Array) && !times.empty? && times.all? { |t| t.is_a?(Numeric) && t.positive? }
        warmup = Array(samples["warmup_s"]).select { |t| t.is_a?(Numeric) && t.positive? }
        {warmup: warmup, measured: times}
      end

      def reason(series)
        short = series.count { |s| s[:measured].size < MIN_ITERATIONS }
        return "#{short} of #{series.size} batches have fewer than #{MIN_ITERATIONS} measured iterations" if short.positive?
        "#{series.size} batches; a trend is tested from #{MIN_BATCHES}" if series.size < MIN_BATCHES
      end

      def cell_result(cell, series, alpha, tests)
        why = reason(series)
        fields = {cell_key: cell.key, runtime: cell.runtime, workload: cell.workload, params: cell.params, batches: series.size,
                  iterations: Stats.median(series.map { |s| s[:measured].size }).round, checked: why.nil?, reason: why,
                  settle: settle_of(series)}
        return Cell.new(**fields, trending: false).freeze if why
        logs = series.map { |s| s[:measured].map { |t| Math.log(t) } }
        slope = trend(logs.map { |l| slope(l) }, alpha, tests)
        early = trend(logs.map { |l| early_shift(l) }, alpha, tests)
        trending = [slope, early].any? { |t| t.decided && t.change.abs >= MIN_CHANGE }
        Cell.new(**fields, slope: slope, early_shift: early, trending: trending).freeze
      end

      # "faster" or "slower": the way the larger decided trend of a trending cell goes.
      def direction(cell)
        trend = [cell.slope, cell.early_shift].select(&:decided).max_by { |t| t.change.abs }
        (trend.change < 0) ? "faster" : "slower"
      end

      # A warning per trending cell, or one for all of them when there are many (a busy host, a
      # warmup too short for the whole suite).
      def warnings(cells)
        trending = cells.select(&:trending)
        advice = "the figures average a moving rate: raise --warmup and --warmup-s (its CPU seconds), or see the steady-state section"
        if trending.size > 3
          faster = trending.count { |c| direction(c) == "faster" }
          return ["#{trending.size} of #{cells.size} cells' measured iterations still trend (#{faster} getting faster, " \
            "#{trending.size - faster} slower; first #{trending.first.cell_key}); #{advice}"]
        end
        trending.map do |c|
          trend = [c.slope, c.early_shift].select(&:decided).max_by { |t| t.change.abs }
          format("%s: its measured iterations still get %s (%+.1f%% [%+.1f%%, %+.1f%%] %s, over %d batches); %s", c.cell_key, direction(c),
            trend.change * 100, trend.ci[0] * 100, trend.ci[1] * 100,
            trend.equal?(c.slope) ? "from the first iteration to the last" : "from the first quarter to the rest", c.batches, advice)
        end
      end

      # One-sample t over the batches' log changes, at the Bonferroni level over `tests` tests.
      def trend(values, alpha, tests)
        n = values.size
        mean = Stats.mean(values)
        se = Stats.sd(values) / Math.sqrt(n)
        p = if se.positive?
          2 * Stats.t_upper_tail((mean / se).abs, n - 1)
        else
          (mean.zero? ? 1.0 : 0.0)
        end
        half = Stats.t_quantile(1 - alpha / (2 * tests), n - 1) * se
        Trend.new(change: Math.exp(mean) - 1, ci: [Math.exp(mean - half) - 1, Math.exp(mean + half) - 1].freeze,
          p_adjusted: [p * tests, 1.0].min, decided: p * tests < alpha).freeze
      end

      # The least-squares change of the logs from the first iteration to the last.
      def slope(logs)
        n = logs.size
        xs = Array.new(n) { |i| i.to_f / (n - 1) }
        mx = Stats.mean(xs)
        my = Stats.mean(logs)
        xs.zip(logs).sum { |x, y| (x - mx) * (y - my) } / xs.sum { |x| (x - mx)**2 }
      end

      # The shift of the mean log from the first quarter of the window (at least one iteration) to the
      # rest: a warmup that ends inside the window. A fixed split, so that with no shift it is as
      # likely either way and about normal across batches (a split chosen per batch where the shift
      # is largest is not: its sign is a coin and its size is not small, which a t test over three
      # batches calls decided a quarter of the time).
      def early_shift(logs)
        k = [(logs.size / 4.0).round, 1].max
        Stats.mean(logs[k..]) - Stats.mean(logs[0...k])
      end

      # Where one series (warmup then measured) settles: [iterations before it, their seconds], or nil
      # when it does not settle before its last third or is too short to say.
      def settle(times)
        n = times.size
        return if n < MIN_SERIES
        logs = times.map { |t| Math.log(t) }
        tail = logs.last(n / 3)
        level = Stats.median(tail)
        band = [SETTLE_SDS * noise(tail), SETTLE_BAND].max
        out = (0..n - SETTLE_WINDOW).to_a.reverse.find { |j| (Stats.median(logs[j, SETTLE_WINDOW]) - level).abs > band }
        start = out ? out + 1 : 0
        start += 1 while start < n && (logs[start] - level).abs > band
        [start, times.first(start).sum] if start <= n - n / 3
      end

      # The noise of a stretch of log times from the spread of its successive differences (a trend
      # inside it shifts them all alike, so it does not widen the band it is then judged against).
      def noise(logs)
        diffs = logs.each_cons(2).map { |a, b| b - a }
        middle = Stats.median(diffs)
        1.4826 * Stats.median(diffs.map { |d| (d - middle).abs }) / Math.sqrt(2)
      end

      def settle_of(series)
        long = series.select { |s| s[:warmup].size + s[:measured].size >= MIN_SERIES }
        found = long.filter_map { |s| settle(s[:warmup] + s[:measured]) }
        seconds = found.map(&:last)
        Settle.new(batches: long.size, reached: found.size, iterations: found.empty? ? nil : Stats.median(found.map(&:first)),
          seconds: found.empty? ? nil : Stats.median(seconds), seconds_range: found.empty? ? nil : seconds.minmax.freeze,
          warmup_iterations: Stats.median(series.map { |s| s[:warmup].size })).freeze
      end
    end
  end
end
