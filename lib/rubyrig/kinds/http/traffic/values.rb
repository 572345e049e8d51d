# The values a path placeholder is filled from: a list (`[a, b]`) or a whole-number range ("1..2000"),
# checked when the experiment is read and picked from uniformly with the batch's seeded generator.
module Rubyrig
  module Kinds
    module Http
      class Traffic
        module Values
          RANGE = /\A\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*\z/

          module_function

          # The plain form of a `values:` entry, {"from" => 1, "to" => 2000} or a list of strings, or nil
          # with the problem when the entry is neither.
          def parse(value)
            if value.is_a?(String) && (m = value.match(RANGE))
              from, to = m[1].to_i, m[2].to_i
              return (from <= to) ? {"from" => from, "to" => to} : nil
            end
            list = value.is_a?(Array) && !value.empty? && value.all? { |v| v.is_a?(String) || v.is_a?(Numeric) }
            list ? value.map(&:to_s) : nil
          end

          def pick(values, random)
            return values[random.rand(values.size)] if values.is_a?(Array)
            (values["from"] + random.rand(values["to"] - values["from"] + 1)).to_s
          end

          # A regular expression source that matches every value (for telling endpoints apart in a log).
          def pattern(values)
            return "-?\\d+" if values.is_a?(Hash)
            "(?:#{values.map { |v| Regexp.escape(v) }.join("|")})"
          end
        end
      end
    end
  end
end
