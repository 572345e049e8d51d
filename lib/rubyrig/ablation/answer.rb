# The answer for one difference: a row per follow-up comparison (the switch, the point of a sweep, the
# ratio with its interval and verdict, the Outcome, the follow-up's directory, and why it was tried),
# the switches skipped and why, and one line that says which switch closes the gap (the first in the
# order they were tried, which follows the factors named), citing the ratio the follow-up measured.
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
      # ratio, ci, confidence, p_adjusted, verdict, reason (what would decide it, or why it failed),
      # method_name, margin, n and baseline_n; outcome: an Outcome word; dir: the follow-up run.
      Row = Struct.new(:switch, :name, :point, :at, :was, :why, :ratio, :ci, :confidence, :p_adjusted, :verdict, :reason,
        :method_name, :margin, :n, :baseline_n, :outcome, :dir, keyword_init: true) do
        def to_record = to_h.transform_keys(&:to_s)
      end

      def self.build(difference, rows, skipped)
        new(difference: difference, rows: rows.freeze, skipped: skipped.freeze, line: line(difference, rows, skipped)).freeze
      end

      def self.line(difference, rows, skipped)
        closing = rows.select { |r| Outcome.closes?(r.outcome) }
        return closed(difference, closing) unless closing.empty?
        return "nothing was tried: #{skipped.map { |s| "#{s.switch.label} #{s.reason}" }.join("; ")}" if rows.empty?
        narrowing = rows.find { |r| r.outcome == Outcome::NARROWS }
        tried = rows.map(&:switch).uniq
        text = "no switch tried closes the gap (#{tried.join("; ")})"
        text += "; #{narrowing.at} it narrows to #{Evidence.ratio(narrowing.ratio, narrowing.ci)}" if narrowing
        text + (Metrics.fetch(difference.metric).speed? ? "; the cause is elsewhere: a profile (--profile) shows where the time goes" : "; the cause is elsewhere")
      end

      # "the difference comes from running 4 threads: at threads=1 3.3.8 and system are equivalent (1.010x [0.970, 1.040])"
      def self.closed(difference, closing)
        first = closing.first
        measured = Evidence.ratio(first.ratio, first.ci)
        between = if first.verdict == Outcome::EQUIVALENT
          "#{difference.runtime} and #{difference.reference} are equivalent (#{measured})"
        elsif Difference::DECIDED.include?(first.verdict)
          "#{difference.runtime} is #{measured} #{difference.reference}, #{first.verdict} within the equivalence margin's reach, clear of the #{format("%.3fx", difference.ratio)} measured"
        else
          "#{difference.runtime} is #{measured} #{difference.reference}, not decided apart and clear of the #{format("%.3fx", difference.ratio)} measured"
        end
        others = closing.reject { |r| r.switch == first.switch }.map(&:at).uniq
        "the difference comes from #{first.was}: #{first.at} #{between}#{"; the gap also closes #{others.join(", ")}" unless others.empty?}"
      end
    end
  end
end
