# The answer for one difference: a row per follow-up comparison (the switch, the point of a sweep, the
# ratio with its interval and verdict, the share of the gap it removes with its interval, the Outcome
# and what would decide it, the follow-up's directory, and why it was tried), the switches skipped and
# why, and one line that says which switch closes the gap (the first in the order they were tried,
# which follows the factors named) and how much of it, citing the numbers the follow-up measured.
module Rubyrig
  module Ablation
    Answer = Struct.new(:difference, :rows, :skipped, :line, keyword_init: true) do
      def to_record
        {"difference" => difference.to_record, "line" => line, "rows" => rows.map(&:to_record), "skipped" => skipped.map { |k| {"switch" => k.switch.label, "name" => k.switch.name, "reason" => k.reason} }}
      end
    end

    class Answer
      # One comparison of a follow-up. switch: its label; name: its kind of switch; point: the swept
      # parameters of this row ({} for a switch without a sweep); at: "at threads=1"; the comparison's
      # ratio, ci, confidence, p_adjusted, df, verdict, reason (what would decide it, or why it failed),
      # method_name, margin, n and baseline_n; share: the Share of the gap removed; outcome: an Outcome
      # word; advice: what would decide a "does not decide"; dir: the follow-up run.
      Row = Struct.new(:switch, :name, :point, :at, :was, :why, :ratio, :ci, :confidence, :p_adjusted, :df, :verdict, :reason,
        :method_name, :margin, :n, :baseline_n, :share, :outcome, :advice, :dir, keyword_init: true) do
        def to_record = to_h.except(:share).transform_keys(&:to_s).merge((share || Share.undefined(nil)).to_record)

        # What was switched, as the line names it: "threads=1", "a larger GC heap".
        def subject = point.to_h.empty? ? switch : Analysis::Section.params_text(point)
      end

      def self.build(difference, rows, skipped)
        new(difference: difference, rows: rows.freeze, skipped: skipped.freeze, line: line(difference, rows, skipped)).freeze
      end

      def self.line(difference, rows, skipped)
        closing = rows.select { |r| Outcome.closes?(r.outcome) }
        return closed(difference, closing) unless closing.empty?
        return "nothing was tried: #{skipped.map { |s| "#{s.switch.label} #{s.reason}" }.join("; ")}" if rows.empty?
        text = "no switch tried closes the gap (#{rows.map(&:switch).uniq.join("; ")})"
        narrowing = rows.find { |r| r.outcome == Outcome::NARROWS }
        text += "; #{narrowing.subject} narrows it, removing #{Outcome.share_text(narrowing.share)} of it (#{narrowing.at}: #{Evidence.ratio(narrowing.ratio, narrowing.ci)})" if narrowing
        open = rows.find { |r| r.outcome == Outcome::UNDECIDED }
        text += "; #{open.subject} does not decide (#{open.share&.defined? ? "removes #{Outcome.share_text(open.share)} of it" : "share undefined"}): #{open.advice}" if open
        text + (Metrics.fetch(difference.metric).speed? ? "; the cause is elsewhere or not decided: a profile (--profile) shows where the time goes" : "; the cause is elsewhere or not decided")
      end

      # "the difference comes from running 4 threads: threads=1 removes 104% [71%, 137%] of the gap (at
      # threads=1 3.3.8 and system are equivalent, 1.010x [0.970, 1.040], against 0.250x measured)"
      def self.closed(difference, closing)
        first = closing.first
        measured = Evidence.ratio(first.ratio, first.ci)
        between = if first.verdict == Outcome::EQUIVALENT
          "#{difference.runtime} and #{difference.reference} are equivalent, #{measured}"
        elsif Difference::DECIDED.include?(first.verdict)
          "#{difference.runtime} is #{measured} #{difference.reference}, #{first.verdict} within the equivalence margin's reach"
        else
          "#{difference.runtime} is #{measured} #{difference.reference}, not decided apart"
        end
        others = closing.reject { |r| r.switch == first.switch }.map(&:subject).uniq
        "the difference comes from #{first.was}: #{first.subject} removes #{Outcome.share_text(first.share)} of the gap (#{first.at} #{between}, " \
          "against #{format("%.3fx", difference.ratio)} measured)#{"; #{others.join(", ")} also close#{"s" if others.size == 1} it" unless others.empty?}"
      end
    end
  end
end
