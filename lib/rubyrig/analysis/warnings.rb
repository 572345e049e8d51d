# What a reader should distrust in a report, one line each with what to do: lines of trials.jsonl that
# were not trials, too few or failed batches, batches that vary a lot or have heavy tails, a busy host,
# GVL metrics on some runtimes only, comparisons that could not be made, metrics that appeared from zero,
# comparisons at the edges of the test (unequal batch counts, counts that barely varied, constant values
# from too few batches), shards missing from a merge, hosts that disagree, metric definitions an old
# run did not record, and the warnings the runtimes and batches carried themselves.
module Rubyrig
  class Analysis
    class Warnings
      CV_LIMIT = 0.05
      # A correction that asks a difference to be this many standard errors away from 1.0 before it is
      # called makes only very large changes visible.
      HIGH_CRITICAL_T = 4.0
      # A batch whose log value lies this many robust standard deviations (1.4826 x the median absolute
      # deviation of the logs, at least TAIL_FLOOR) from the median marks a heavy tail.
      TAIL_SDS = 5.0
      TAIL_FLOOR = 0.01
      # Heavy tails are looked for from this many batches in a cell.
      TAIL_MIN_BATCHES = 5

      # report: the core Report (cells, trials, summaries, comparisons); derived: what the kinds derived
      # from it (Analysis::DERIVED), each with its comparisons;
      # skipped: one line per line of trials.jsonl that could not be read as a trial (Store#read_trials).
      def initialize(report, derived:, skipped: [])
        @report = report
        @derived = derived
        @skipped = skipped
        @measured = report.measured_by_cell
      end

      def list
        run = @report.run
        lines = @skipped + shards(run) + few_batches + failed + variation + heavy_tails + host(run) + disagreeing_hosts + gvl +
          appeared + not_compared + edges + strict_corrections
        lines.concat(metric_definitions(run) + run.runtimes.values.flat_map { |r| r["warnings"] || [] })
        lines.concat(@report.trials.flat_map { |t| (t.warnings || []).map { |w| "#{t.cell_key}: #{w}" } })
        lines.uniq
      end

      private

      def cells = @report.cells

      # A run from before format 3 did not record its metric definitions: it reads today's, and says so.
      def metric_definitions(run)
        return [] if run.metrics.recorded?
        ["this run (results format #{run.format_version}) did not record its metric definitions; units, directions and " \
          "labels are today's (rubyrig #{VERSION})"]
      end

      def ok(cell) = @measured.fetch(cell.key, [])

      # One line when every short cell has the same count, else one line per cell.
      def few_batches
        short = cells.map { |c| [c, ok(c).size] }.select { |_, n| n < Inference::MIN_BATCHES }
        advice = "statistics need #{Inference::MIN_BATCHES} or more (--batches)"
        counts = short.map(&:last).uniq
        if short.size > 1 && counts.size == 1
          n = counts.first
          subject = (short.size == cells.size) ? "every cell has" : "#{short.size} cells have"
          ["#{subject} only #{n} ok batch#{"es" unless n == 1}; #{advice}"]
        else
          short.map { |cell, n| "#{cell.key}: only #{n} ok batch#{"es" unless n == 1}; #{advice}" }
        end
      end

      def failed
        cells.filter_map do |cell|
          list = @report.trials.select { |t| t.cell_key == cell.key && t.failed? }
          next if list.empty?
          "#{cell.key}: #{list.size} failed batch#{"es" if list.size > 1} (#{list.first.reason})"
        end
      end

      # A line per cell whose primary metric varies more than CV_LIMIT between batches (within a host),
      # or one line for all of them when there are many (a noisy host makes every cell vary).
      def variation
        noisy = cells.filter_map do |cell|
          metric = @report.primary_metric(cell.workload)
          summary = @report.summary(cell.key, metric)
          cv = summary && within_host_cv(summary)
          [cell, Metrics.fetch(metric).label, cv] if cv && cv > CV_LIMIT
        end
        advice = "close other programs, pin CPUs with --cpus or add batches"
        limit = (CV_LIMIT * 100).round
        if noisy.size > 3
          worst = noisy.max_by(&:last)
          return [format("%d of %d cells vary more than %d%% between batches (CV %.1f%% to %.1f%%, most in %s); %s",
            noisy.size, cells.size, limit, noisy.map(&:last).min * 100, worst.last * 100, worst.first.key, advice)]
        end
        noisy.map do |cell, label, cv|
          format("%s: %s varies a lot between batches (CV %.1f%% > %d%%); %s", cell.key, label, cv * 100, limit, advice)
        end
      end

      # A cell whose primary metric has a batch far out in the tail: one slow batch widens the interval
      # more than it moves the estimate, so the test loses power (docs/statistics.md, heavy tails). One
      # line for all of them when there are many, as for variation (a disturbed host gives every cell one).
      def heavy_tails
        tails = cells.filter_map { |cell| far_batches(cell) }
        advice = "such heavy tails make the interval wide: look at those batches' logs for what disturbed them, " \
          "keep the host quiet (--cpus) or add batches"
        if tails.size > 3
          factors = tails.flat_map { |t| t[:factors] }
          worst = tails.max_by { |t| t[:factors].map { |f| Math.log(f).abs }.max }
          return [format("%d of %d cells have batches far from the others on their primary metric (%s to %s the median, " \
            "most in %s); %s", tails.size, cells.size, times(factors.min), times(factors.max), worst[:cell].key, advice)]
        end
        tails.map do |t|
          format("%s: %d of %d batches lie far from the others on %s (%s the median); %s", t[:cell].key, t[:factors].size,
            t[:n], t[:label], t[:factors].map { |f| times(f) }.join(", "), advice)
        end
      end

      # The batches of a cell's primary metric beyond TAIL_SDS robust deviations of its median (on logs),
      # as factors of the median; nil when there are none or too few batches to say.
      def far_batches(cell)
        summary = @report.summary(cell.key, @report.primary_metric(cell.workload))
        return unless summary && summary.n >= TAIL_MIN_BATCHES && summary.values.all?(&:positive?)
        logs = summary.values.map { |v| Math.log(v) }
        middle = Stats.median(logs)
        spread = [1.4826 * Stats.median(logs.map { |l| (l - middle).abs }), TAIL_FLOOR].max
        far = summary.values.select { |v| (Math.log(v) - middle).abs > TAIL_SDS * spread }
        return if far.empty?
        {cell: cell, n: summary.n, label: Metrics.fetch(summary.metric).label, factors: far.map { |v| v / Math.exp(middle) }}
      end

      def times(factor) = format("%.2fx", factor)

      # The CV between batches; for batches from several hosts, that of the noisiest host, since the
      # hosts' own differences are taken out of every comparison.
      def within_host_cv(summary)
        hosts = summary.hosts.to_a
        return summary.cv if hosts.uniq.size < 2
        summary.values.zip(hosts).group_by(&:last).values.filter_map { |pairs| Stats.cv(pairs.map(&:first)) }.max
      end

      # Only the load before the run counts: afterwards the benchmark's own processes are in the average.
      def host(run)
        run.hosts.filter_map do |id, facts|
          cores = facts["cores"] || 1
          load = facts["load_average"]
          next unless load&.first && load.first > cores * 0.5
          subject = (run.hosts.size > 1) ? "host #{id} was" : "the host was"
          format("%s busy before the run (load %.2f on %d cores); timings may be noisy", subject, load.first, cores)
        end
      end

      # A merge that lacks shards, or holds one that did not finish.
      def shards(run)
        missing = run.missing_shards
        lines = []
        unless missing.empty?
          lines << "#{(missing.size == 1) ? "shard" : "shards"} #{missing.join(", ")} of #{run.shard_count} #{(missing.size == 1) ? "is" : "are"} " \
            "missing from this merge; its statistics use the other hosts only (run the missing shards and merge again)"
        end
        run.shards.reject { |s| s["finished_at"] }.each do |s|
          lines << "shard #{s["index"]}/#{s["count"]} on host #{s["host_id"]} did not finish (#{s["trials"]} of #{s["planned_batches"]} batches)"
        end
        lines
      end

      # Primary comparisons whose hosts disagree more than their noise explains: the combined ratio then
      # averages different effects, and the odd host is named.
      def disagreeing_hosts
        @report.comparisons.select { |c| c.heterogeneity&.disagree && c.metric == @report.primary_metric(c.workload) }.map do |c|
          h = c.heterogeneity
          where = [c.workload, Experiment::Cell.new(params: c.params).params_label].reject(&:empty?).join(" | ")
          per_host = c.hosts.select(&:used?).map { |s| format("%s %.3fx", s.host, s.ratio) }.join(", ")
          odd = (h.odd_hosts.size == 1) ? "host #{h.odd_hosts.first} is the odd one" : "hosts #{h.odd_hosts.join(" and ")} go different ways"
          format("%s: %s against %s, %s: the hosts disagree more than noise explains (Cochran's Q %.2f on %d df, p=%s corrected): %s; " \
            "%s, so the combined ratio averages different effects: look at each host", where, c.runtime, c.baseline,
            Metrics.fetch(c.metric).label, h.q, h.df, (h.p_adjusted < 0.001) ? "<0.001" : format("%.3f", h.p_adjusted), per_host, odd)
        end
      end

      # GVL instrumentation exists on CRuby 3.2+ only, and its hooks cost a little on every thread switch:
      # a run where some runtimes cannot carry it measures it apart (Runner#gvl_apart), and says so.
      def gvl
        apart = @report.trials.select { |t| t.diagnostic == "gvl" && t.ok? }.map(&:runtime).uniq
        unless apart.empty?
          return ["GVL wait on #{apart.join(", ")} comes from one diagnostic batch per cell, apart from the measured batches: " \
            "the other runtimes cannot measure it (it needs CRuby 3.2+), and its hooks could tilt the speed comparison (bench/gvl-cost)"]
        end
        with, without = cells.map(&:runtime).uniq.partition do |runtime|
          cells.any? { |c| c.runtime == runtime && ok(c).any? { |t| t.metrics.key?("gvl_wait_s") } }
        end
        return [] if with.empty? || without.empty?
        ["GVL wait is measured on #{with.join(", ")} but n/a on #{without.join(", ")} (it needs CRuby 3.2+); " \
          "its hooks can cost a few percent on thread-heavy workloads, so rerun with --no-gvl for the cleanest speed comparison"]
      end

      # When many runtimes (and looks) share few batches, the corrected interval needs a large t: say so
      # once per primary metric, with the batch count that would bring it down. The t is that of the
      # degrees of freedom each comparison used (pairs - 1 when paired by round, Welch's otherwise).
      def strict_corrections
        @report.comparisons.select { |c| c.metric == @report.primary_metric(c.workload) && c.confidence }
          .group_by { |c| [c.workload, c.confidence] }.filter_map do |(workload, confidence), list|
            q = 1 - (1 - confidence) / 2
            n = list.map { |c| [c.n, c.baseline_n].min }.min
            t = list.map { |c| Stats.t_quantile(q, c.df || 2 * n - 2) }.max
            next if t <= HIGH_CRITICAL_T
            paired = list.any?(&:paired)
            most = list.map { |c| [c.n, c.baseline_n].max }.max
            enough = (most..200).find { |k| Stats.t_quantile(q, paired ? k - 1 : 2 * k - 2) <= HIGH_CRITICAL_T }
            format("%s: with %d batches per cell and a %.2f%% interval (%s), a difference must be %.1f standard errors from 1.0 " \
              "to be called, so only large changes can be; --batches %s brings that under %.0f",
              workload, n, confidence * 100, list.first.method_name, t, enough || "200+", HIGH_CRITICAL_T)
          end.uniq
      end

      # A metric that was 0 in every batch on one side and not on the other: its verdict and counts.
      def appeared
        @report.comparisons.select { |c| c.appearance }.map do |c|
          "#{where(c)}: #{Metrics.fetch(c.metric).label} #{c.verdict} against #{c.baseline}: #{c.reason}"
        end
      end

      # Comparisons that met an edge of the test (Inference::CAVEATS), one line per edge with the
      # comparisons it concerns (the first few named).
      def edges
        Inference::CAVEATS.filter_map do |caveat, text|
          hit = @report.comparisons.select { |c| c.caveats.to_a.include?(caveat) }
          next if hit.empty?
          named = hit.first(3).map { |c| "#{where(c)} #{Metrics.fetch(c.metric).label}" }
          more = (hit.size > 3) ? " and #{hit.size - 3} more" : ""
          "#{text}: #{named.join("; ")}#{more}"
        end
      end

      def where(c) = "#{c.runtime} | #{c.workload}#{" | #{Experiment::Cell.new(params: c.params).params_label}" unless c.params.empty?}"

      # A speed comparison that could not be made (a zero rate, no batches) is said out loud.
      def not_compared
        runtime = @report.comparisons.select { |c| c.verdict == Verdict::NOT_COMPARED && Metrics.fetch(c.metric).speed? }
          .map { |c| "#{c.runtime} | #{c.workload}#{" | #{Experiment::Cell.new(params: c.params).params_label}" unless c.params.empty?}: #{Metrics.fetch(c.metric).label} not compared: #{c.reason}" }
        contrasts = @derived.flat_map(&:comparisons)
        modes = contrasts.reject(&:compared?).map do |c|
          "#{c.runtime} | #{c.workload}: #{c.other} against #{c.reference} not compared: #{c.reason}"
        end
        runtime + modes
      end
    end
  end
end
