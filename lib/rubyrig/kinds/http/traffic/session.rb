# One session of a traffic's `sessions:`: its name, its weight among the sessions, and its steps, each a
# Request or a pause (think_s) after the step before it.
module Rubyrig
  module Kinds
    module Http
      class Traffic
        Session = Struct.new(:name, :weight, :steps, keyword_init: true) do
          def self.from_h(hash)
            steps = hash.fetch("steps").map { |s| s.key?("think_s") ? Pause.new(think_s: s["think_s"]).freeze : Request.from_h(s) }
            new(name: hash.fetch("name"), weight: hash.fetch("weight", 1), steps: steps.freeze).freeze
          end

          def requests = steps.grep(Request)

          # The session's requests with their placeholders filled, each with the pause that follows it.
          def fill(random)
            filled = []
            steps.each do |step|
              if step.is_a?(Pause)
                filled[-1] = filled.last.merge(think_s: filled.last[:think_s] + step.think_s) unless filled.empty?
              else
                filled << {call: step.fill(random), think_s: 0}
              end
            end
            filled
          end
        end
      end
    end
  end
end
