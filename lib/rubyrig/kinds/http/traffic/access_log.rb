# An access log in the Common or Combined Log Format, read into the requests it replays (method and path,
# in the log's order) and the endpoint each belongs to: its method and path without the query, with
# every number segment written as n, a format's extension kept (GET /posts/12.json?x=1 is get_posts_n_json).
module Rubyrig
  module Kinds
    module Http
      class Traffic
        module AccessLog
          # A log that cannot be replayed; the message names its file and line.
          class Invalid < Error; end

          LINE = /\A\S+ \S+ \S+ \[[^\]]+\] "([A-Z]+) (\S+)(?: HTTP\/[\d.]+)?" \d{3} \S+/
          MAX_REQUESTS = 100_000

          module_function

          # The log's requests as Calls, in order; Invalid for a line that is not in the format.
          def read(path)
            calls = []
            Processes::TextFile.each_line(path).with_index(1) do |line, number|
              next if line.strip.empty?
              calls << call(line, "#{path}:#{number}")
              raise Invalid, "#{path} has more than #{MAX_REQUESTS} requests; replay a part of it (e.g. head -n #{MAX_REQUESTS})" if calls.size > MAX_REQUESTS
            end
            raise Invalid, "#{path} has no requests; give a log with at least one line" if calls.empty?
            calls
          end

          def call(line, where)
            match = line.match(LINE) || raise(Invalid, "#{where}: not a Common or Combined Log Format line (HOST - USER [TIME] \"METHOD PATH HTTP/1.1\" STATUS SIZE): #{line.strip[0, 80]}")
            method, path = match[1], match[2]
            raise Invalid, "#{where}: method #{method} cannot be replayed; use #{Loader::METHODS.join(", ")}" unless Loader::METHODS.include?(method)
            raise Invalid, "#{where}: the path #{path[0, 80]} must start with /" unless path.start_with?("/")
            Call.new(name: endpoint(method, path), method: method, path: path, headers: {}, body: nil).freeze
          end

          # The endpoint of a request: get_posts_n for GET /posts/12?page=2, get_posts_n_json for /posts/12.json.
          def endpoint(method, path)
            segments = path.split("?", 2).first.split("/").reject(&:empty?).map { |s| s.sub(/\A\d+(?=\z|\.\w+\z)/, "n") }
            ([method.downcase] + segments).join("_").gsub(/[^A-Za-z0-9_-]+/, "_")
          end
        end
      end
    end
  end
end
