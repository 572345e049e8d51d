# One request of a traffic mix or a session step: method, a path whose `{name}` placeholders are filled
# from their values, headers, a body and a weight. It fills itself into a Call for one send, and gives
# the pattern that tells its lines in the server's request log apart from other endpoints'.
module Rubyrig
  module Kinds
    module Http
      class Traffic
        Request = Struct.new(:name, :method, :path, :values, :headers, :body, :weight, keyword_init: true) do
          def self.from_h(hash)
            new(name: hash.fetch("name"), method: hash.fetch("method"), path: hash.fetch("path"), values: hash.fetch("values", {}),
              headers: hash.fetch("headers", {}), body: hash["body"], weight: hash.fetch("weight", 1)).freeze
          end

          def placeholders = path.scan(/\{(\w+)\}/).flatten.uniq

          # This request with its placeholders filled from the seeded generator.
          def fill(random)
            filled = path.gsub(/\{(\w+)\}/) { Values.pick(values.fetch(Regexp.last_match(1)), random) }
            Call.new(name: name, method: method, path: filled, headers: headers, body: body).freeze
          end

          # The method and path this request sends, as one pattern over "METHOD PATH" (query included).
          def pattern
            parts = path.split(/(\{\w+\})/).map do |part|
              part.match?(/\A\{\w+\}\z/) ? Values.pattern(values.fetch(part[1..-2])) : Regexp.escape(part)
            end
            /\A#{Regexp.escape(method)} #{parts.join}\z/
          end

          # How specific the pattern is: a literal path is tried before one with placeholders.
          def specificity = -placeholders.size
        end
      end
    end
  end
end
