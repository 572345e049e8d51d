# The Lua script wrk runs for a batch with traffic: rubyrig's report (done(), Load::Wrk::SCRIPT) and the
# batch's sequence of requests, which each wrk thread formats once (wrk.format, with wrk's own headers
# under the request's) and sends in turn from its own starting place, cycling. Strings are written as
# Lua decimal escapes, so any byte in a path, header or body arrives as given.
module Rubyrig
  module Kinds
    module Http
      class Traffic
        module WrkScript
          FILE = "traffic.lua"

          REQUESTS = <<~LUA
            -- rubyrig's traffic: the batch's requests in order; each wrk thread starts at its own place.
            local thread_count = 0
            local formatted = {}
            local position = 1

            function setup(thread)
              thread:set("first", thread_count)
              thread_count = thread_count + 1
            end

            function init(args)
              for i, call in ipairs(calls) do
                local headers = {}
                for name, value in pairs(wrk.headers) do headers[name] = value end
                for name, value in pairs(call[3]) do headers[name] = value end
                formatted[i] = wrk.format(call[1], call[2], headers, call[4])
              end
              position = ((first or 0) * stride) % #formatted + 1
            end

            function request()
              local r = formatted[position]
              position = position + 1
              if position > #formatted then position = 1 end
              return r
            end
          LUA

          module_function

          # Writes the script for `calls` into dir and returns its path; threads: wrk's threads, each of
          # which starts 1/threads of the way further along the sequence.
          def write(calls, dir:, threads:)
            path = File.join(dir, FILE)
            File.write(path, text(calls, threads))
            path
          end

          def text(calls, threads)
            rows = calls.map do |c|
              headers = c.headers.map { |k, v| "[#{lua(k)}]=#{lua(v)}" }.join(",")
              "{#{lua(c.method)},#{lua(c.path)},{#{headers}},#{c.body ? lua(c.body) : "nil"}}"
            end
            [Processes::TextFile.read(Load::Wrk::SCRIPT), "calls = {\n#{rows.join(",\n")}\n}",
              "stride = #{calls.size / [threads, 1].max}", REQUESTS].join("\n")
          end

          def lua(text)
            "\"#{text.to_s.b.each_byte.map { |b| (b.between?(32, 126) && b != 34 && b != 92) ? b.chr : format("\\%03d", b) }.join}\""
          end
        end
      end
    end
  end
end
