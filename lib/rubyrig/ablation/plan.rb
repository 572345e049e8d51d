# Which follow-ups fit the budget: the first switch of every difference before the second of any, each
# taken while its estimate fits what is left, the others skipped with the reason. A follow-up finished
# by an earlier `rubyrig why`, or planned already for another metric of the same cell, costs nothing.
module Rubyrig
  module Ablation
    Plan = Struct.new(:steps, :skipped, keyword_init: true)

    class Plan
      # dir: the follow-up's directory relative to the run's; free: why it costs nothing (nil when it does).
      Step = Struct.new(:difference, :switch, :dir, :estimate_s, :free, keyword_init: true)
      Skip = Struct.new(:difference, :switch, :reason, keyword_init: true)

      # candidates: [[Difference, [Switch, ...]], ...]; estimate: ->(difference, switch) { seconds };
      # done: ->(dir) { whether that follow-up finished before }.
      def self.build(candidates, budget_s:, estimate:, done:)
        steps = []
        skipped = []
        left = budget_s
        ordered(candidates).each do |difference, switch|
          dir = dir(difference, switch)
          free = if steps.any? { |s| s.dir == dir } then "the same follow-up as another metric of this cell"
          elsif done.call(dir) then "finished by an earlier `rubyrig why`"
          end
          cost = free ? 0.0 : estimate.call(difference, switch)
          if cost <= left
            steps << Step.new(difference: difference, switch: switch, dir: dir, estimate_s: cost, free: free).freeze
            left -= cost
          else
            skipped << Skip.new(difference: difference, switch: switch, reason: "needs about #{duration(cost)}, #{duration(left)} of the budget left").freeze
          end
        end
        new(steps: steps.freeze, skipped: skipped.freeze).freeze
      end

      # The follow-up's directory, relative to the run's.
      def self.dir(difference, switch) = File.join(DIR, difference.slug, switch.slug)

      # [difference, switch] pairs: every difference's first switch, then every second one...
      def self.ordered(candidates)
        longest = candidates.map { |_, switches| switches.size }.max || 0
        (0...longest).flat_map { |i| candidates.filter_map { |difference, switches| [difference, switches[i]] if switches[i] } }
      end

      # 75 => "1m15s", 600 => "10m", 9.4 => "9s"
      def self.duration(seconds)
        s = seconds.round
        return "#{s}s" if s < 60
        (s % 60).zero? ? "#{s / 60}m" : "#{s / 60}m#{format("%02d", s % 60)}s"
      end
    end
  end
end
