# Reads and checks a workload's `traffic:` (requests, sessions or an access log) from the experiment,
# each problem one line with the file, the line and the fix, into the plain data run.json records.
module Rubyrig
  module Kinds
    module Http
      class Traffic
        class Loader
          KEYS = %w[seed values requests sessions access_log].freeze
          REQUEST_KEYS = %w[name method path values headers body weight].freeze
          SESSION_KEYS = %w[name weight steps].freeze
          METHODS = %w[GET POST PUT PATCH DELETE HEAD OPTIONS].freeze
          NAME = /\A[A-Za-z0-9_-]+\z/

          # fields: the `traffic:` mapping's Fields.
          def initialize(fields)
            @fields = fields
          end

          def load
            @fields.fail([], "must be a mapping with requests:, sessions: or access_log: (see docs/traffic.md)") unless @fields.hash.is_a?(Hash)
            @fields.check_keys(KEYS, "traffic")
            given = %w[requests sessions access_log].select { |key| @fields.key?(key) }
            @fields.fail([], "must give exactly one of requests:, sessions: or access_log:, got #{given.empty? ? "none" : given.join(" and ")}") unless given.size == 1
            seed = @fields["seed"]
            @fields.fail(["seed"], "must be a whole number, e.g. seed: 7, got #{seed.inspect}") unless seed.nil? || seed.is_a?(Integer)
            @shared = values(@fields, ["values"])
            {"seed" => seed || 0, given.first => send(given.first)}
          end

          private

          def requests
            list = entries(@fields, ["requests"], "requests", "a list of requests such as {path: /posts, weight: 3}")
            parsed = list.each_with_index.map { |entry, i| request(@fields.child(["requests", i], entry), weight: true) }
            unique(parsed, ["requests"])
          end

          def sessions
            list = entries(@fields, ["sessions"], "sessions", "a list of sessions such as {name: reader, steps: [{path: /posts}]}")
            parsed = list.each_with_index.map { |entry, i| session(@fields.child(["sessions", i], entry)) }
            names = parsed.map { |s| s["name"] }
            duplicate = names.find { |n| names.count(n) > 1 }
            @fields.fail(["sessions"], "has the session '#{duplicate}' twice; give each its own name") if duplicate
            parsed
          end

          def access_log
            path = @fields.file("access_log", "the path of an access log in the Combined Log Format")
            AccessLog.read(path)
            path
          rescue AccessLog::Invalid => e
            @fields.fail(["access_log"], e.message, own_name: false)
          end

          def entries(fields, keys, what, example)
            list = fields[keys.last]
            fields.fail(keys, "must be #{example}") unless list.is_a?(Array)
            fields.fail(keys, "is empty; give at least one of the #{what}") if list.empty?
            list
          end

          def session(fields)
            fields.fail([], "must be a mapping such as {name: reader, weight: 2, steps: [...]}") unless fields.hash.is_a?(Hash)
            fields.check_keys(SESSION_KEYS, "a session")
            name = fields["name"]
            fields.fail(["name"], "must be a name of letters, digits, _ and -, e.g. name: reader, got #{name.inspect}") unless name.is_a?(String) && name.match?(NAME)
            steps = entries(fields, ["steps"], "steps", "a list of steps: requests such as {path: /posts} and pauses such as {think_s: 1}")
            parsed = steps.each_with_index.map { |step, i| step(fields.child(["steps", i], step)) }
            fields.fail(["steps"], "has only pauses; give at least one request") if parsed.all? { |s| s.key?("think_s") }
            {"name" => name, "weight" => weight(fields), "steps" => parsed}
          end

          def step(fields)
            if fields.hash.is_a?(Hash) && fields.key?("think_s")
              fields.check_keys(%w[think_s], "a pause (a pause is only {think_s: SECONDS}; make the request a step of its own)")
              think = fields["think_s"]
              fields.fail(["think_s"], "must be a number of seconds, 0 or more, got #{think.inspect}") unless think.is_a?(Numeric) && think >= 0
              return {"think_s" => think}
            end
            request(fields, weight: false)
          end

          def request(fields, weight:)
            fields.fail([], "must be a mapping such as {name: show, path: \"/posts/{id}\"}") unless fields.hash.is_a?(Hash)
            fields.check_keys(weight ? REQUEST_KEYS : REQUEST_KEYS - ["weight"], weight ? "a request" : "a session step")
            method = (fields["method"] || "GET").to_s.upcase
            fields.fail(["method"], "must be one of #{METHODS.join(", ")}, got #{fields["method"].inspect}") unless METHODS.include?(method)
            path = path(fields)
            own = @shared.merge(values(fields, ["values"]))
            missing = path.scan(/\{(\w+)\}/).flatten.uniq.reject { |name| own.key?(name) }
            fields.fail(["path"], "has the placeholder {#{missing.first}} without values; add values: {#{missing.first}: 1..100} (a range or a list)") unless missing.empty?
            used = own.slice(*path.scan(/\{(\w+)\}/).flatten)
            {"name" => name(fields, method, path), "method" => method, "path" => path, "values" => used, "headers" => headers(fields),
             "body" => body(fields), "weight" => weight ? weight(fields) : nil}.compact
          end

          def path(fields)
            path = fields["path"]
            fields.fail(["path"], "must be a URL path starting with /, e.g. path: \"/posts/{id}\", got #{path.inspect}") unless path.is_a?(String) && path.match?(%r{\A/\S*\z})
            path
          end

          def name(fields, method, path)
            name = fields["name"]
            return "#{method.downcase}#{path.gsub(/[^A-Za-z0-9]+/, "_")}".sub(/_+\z/, "") if name.nil?
            fields.fail(["name"], "must be a name of letters, digits, _ and -, e.g. name: show, got #{name.inspect}") unless name.is_a?(String) && name.match?(NAME)
            name
          end

          def values(fields, keys)
            given = fields[keys.last]
            return {} if given.nil?
            fields.fail(keys, "must be a mapping of placeholder names to values, e.g. {id: 1..2000, sort: [asc, desc]}") unless given.is_a?(Hash)
            given.to_h do |key, value|
              parsed = Values.parse(value)
              fields.fail(keys + [key], "must be a whole-number range such as \"1..2000\" or a list such as [a, b], got #{value.inspect}") unless parsed
              [key.to_s, parsed]
            end
          end

          def headers(fields)
            headers = fields["headers"]
            return {} if headers.nil?
            valid = headers.is_a?(Hash) && headers.all? { |k, v| k.to_s.match?(/\A[A-Za-z0-9-]+\z/) && (v.is_a?(String) || v.is_a?(Numeric)) && !v.to_s.match?(/[\r\n]/) }
            fields.fail(["headers"], "must be a mapping of header names to one-line text, e.g. {Accept: application/json}") unless valid
            headers.to_h { |k, v| [k.to_s, v.to_s] }
          end

          def body(fields)
            body = fields["body"]
            fields.fail(["body"], "must be text, e.g. body: \"title=hi\" (a JSON body as a quoted string)") unless body.nil? || body.is_a?(String)
            body
          end

          def weight(fields)
            weight = fields["weight"] || 1
            fields.fail(["weight"], "must be a positive number (a share relative to the others), got #{weight.inspect}") unless weight.is_a?(Numeric) && weight.positive?
            weight
          end

          def unique(requests, keys)
            names = requests.map { |r| r["name"] }
            duplicate = names.find { |n| names.count(n) > 1 }
            @fields.fail(keys, "has the request '#{duplicate}' twice; give each its own name:") if duplicate
            requests
          end
        end
      end
    end
  end
end
