# The sentences every history format shares, so that the terminal, Markdown, JSON and HTML say the same:
# a change point ("12.0% [8.0%, 16.0%] slower from run 7 (2026-11-28T10:00, commit a1b2c3d) on; no change
# before"), its two sides, a cut ("host changed at run 5"), and a series without change.
module Rubyrig
  module History
    module Phrase
      module_function

      # "nbody · steps=200 · wall_s on 3.3.8+yjit".
      # How change points are found and decided, for every format's footer.
      def method(report)
        if report.by == "version"
          return "each version compared with the one before on their batches (Welch t on log values, Bonferroni over a series' steps, alpha #{report.alpha})"
        end
        "#{Analysis::ChangePoints::DETECTION} on the runs' levels with a permutation test (alpha #{report.alpha}, seed #{report.seed}), " \
          "each candidate decided by comparing the #{(report.by == "time") ? "run" : "point"}s on either side"
      end

      def series(entry)
        on = entry.runtime.to_s.empty? ? "" : " on #{entry.runtime}"
        "#{entry.title} · #{entry.metric}#{on}#{" · host #{entry.host}" if entry.host}"
      end

      # "12.0% [8.0%, 16.0%] slower from run 7 (...) on; no change before".
      def change(entry, change)
        first = entry.changes.none? { |c| c.index < change.index && same_stretch?(entry, c.index, change.index) }
        since = first ? "no change before" : "after the change at #{point(entry, previous(entry, change))}"
        "#{amount(change)} from #{point(entry, change.index)} on; #{since}"
      end

      # "runs 1–6 (commits a1b2c3d–0f9e8d7), level 1.102 s; after: runs 7–12 (...), level 1.234 s; p=0.002".
      def sides(entry, change)
        before = level(entry, change.before.begin)
        after = level(entry, change.index)
        "before: #{span(entry, change.before)}, level #{Reporters::Format.value(before, entry.unit)}; " \
          "after: #{span(entry, change.after)}, level #{Reporters::Format.value(after, entry.unit)}; p=#{Reporters::Format.p_value(change.p_value)}"
      end

      # The change as a percentage in the verdict's direction: "12.0% [8.0%, 16.0%] slower"; an undecided or
      # equivalent one signed: "+3.0% [-1.0%, +7.0%], inconclusive".
      def amount(change)
        return "not compared" if change.ratio.nil?
        unless Analysis::Verdict.significant?(change.verdict)
          return "#{signed(change.ratio - 1)} [#{signed(change.low - 1)}, #{signed(change.high - 1)}], #{change.verdict}"
        end
        return "#{ratio(change.ratio)} [#{ratio(change.low)}, #{ratio(change.high)}] #{change.verdict}" if change.ratio >= 2
        pct, low, high = (change.ratio >= 1) ? [change.ratio - 1, change.low - 1, change.high - 1] : [1 - change.ratio, 1 - change.high, 1 - change.low]
        "#{percent(pct)} [#{percent(low)}, #{percent(high)}] #{change.verdict}"
      end

      # "host changed at run 5 (a → b)" or "interpreter rebuilt at run 5" / "interpreter changed at run
      # 5 (3.3.7 → 3.3.8)": the runs on either side are not compared.
      def cut(entry, cut)
        what = if cut.reason == "host" then "host changed"
        elsif cut.from == cut.to then "interpreter rebuilt"
        else "interpreter changed"
        end
        detail = (cut.from == cut.to) ? "" : ", #{cut.from} → #{cut.to}"
        "#{what} at #{point(entry, cut.index)}#{detail}: the #{noun(entry)}s on either side are not compared"
      end

      def none(entry)
        return entry.unsearched if entry.unsearched
        (entry.marks.size < 2) ? "one #{noun(entry)}: nothing to compare yet" : "no change point in #{count(entry)}"
      end

      # "run 7 (2026-11-28T10:00, commit a1b2c3d)", "commit a1b2c3d (2026-11-28T10:00)" or "3.3.8".
      def point(entry, index)
        mark = entry.marks[index]
        case entry.by
        when "version" then mark.label
        when "commit" then "commit #{mark.label} (#{stamp(mark)})"
        else
          commit = mark.revision ? ", commit #{mark.revision.to_s[0, 7]}" : ""
          "run #{mark.number} (#{mark.label}#{commit})"
        end
      end

      # "12 runs", "1 commit".
      def count(entry) = "#{entry.marks.size} #{noun(entry)}#{"s" unless entry.marks.size == 1}"

      def noun(entry) = {"version" => "version", "commit" => "commit"}.fetch(entry.by, "run")

      def span(entry, range)
        from = entry.marks[range.begin]
        to = entry.marks[range.end]
        names = (from == to) ? [from.label] : [from.label, to.label]
        return "#{noun(entry)} #{names.join("–")}" unless entry.by == "time"
        numbers = (from == to) ? from.number.to_s : "#{from.number}–#{to.number}"
        revisions = [from.revision, to.revision].compact.map { |r| r.to_s[0, 7] }.uniq
        "run#{"s" unless from == to} #{numbers}#{" (commit#{"s" if revisions.size > 1} #{revisions.join("–")})" unless revisions.empty?}"
      end

      def level(entry, index) = entry.levels.find { |l| index.between?(l.from, l.to) }&.value

      def stamp(mark) = mark.started_at.utc.strftime("%Y-%m-%dT%H:%M")

      def same_stretch?(entry, a, b) = entry.cuts.none? { |c| c.index > a && c.index <= b }

      def previous(entry, change) = entry.changes.select { |c| c.index < change.index }.map(&:index).max

      def ratio(r) = "#{Reporters::Format.ratio_number(r)}x"

      def percent(fraction) = format("%.1f%%", fraction * 100)

      def signed(fraction) = (fraction.negative? ? "" : "+") + percent(fraction)
    end
  end
end
