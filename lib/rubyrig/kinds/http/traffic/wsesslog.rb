# The --wsesslog file httperf runs for a batch with traffic: one session per paragraph, one request per
# line (method=, contents= with httperf's quoting, think= for the pause after it), at most 1000 sessions
# (httperf's limit), rotated by `offset` so that each httperf process starts at its own place.
module Rubyrig
  module Kinds
    module Http
      class Traffic
        module Wsesslog
          # httperf reads a line of at most 10,000 characters.
          MAX_LINE = 9_000

          # A request httperf cannot send as written.
          class Unsendable < Error; end

          module_function

          # Writes the file for `sessions` (Traffic#session_list) as dir/name and returns its path.
          def write(sessions, dir:, name:, offset: 0)
            path = File.join(dir, name)
            File.write(path, text(sessions.rotate(offset)))
            path
          end

          def text(sessions)
            "# Written by rubyrig for one batch: one session per paragraph.\n" +
              sessions.map { |steps| steps.map { |step| line(step[:call], step[:think_s]) }.join("\n") }.join("\n\n") + "\n"
          end

          def line(call, think_s)
            if call.path.match?(/\s/) || call.path.length > MAX_LINE
              raise Unsendable, "httperf cannot send the path #{call.path[0, 80]} (it holds a space or is longer than #{MAX_LINE} characters)"
            end
            parts = [call.path]
            parts << "method=#{call.method}" unless call.method == "GET"
            parts << "contents=#{quote(call.body)}" if call.body && !call.body.empty?
            parts << "think=#{format("%.3f", think_s)}" if think_s.positive?
            parts.join(" ")
          end

          # httperf's contents= quoting: double quotes, with backslash escapes for quotes, backslashes and
          # line ends.
          def quote(body)
            "\"#{body.gsub(/[\\"\n\r\t]/) { |c| {"\\" => "\\\\", "\"" => "\\\"", "\n" => "\\n", "\r" => "\\r", "\t" => "\\t"}.fetch(c) }}\""
          end
        end
      end
    end
  end
end
