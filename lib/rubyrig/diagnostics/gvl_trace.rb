# Turns the GVL trace segments a batch left (gvl-<pid>-<segment>.json, written by gvl-tracing in each
# process) into one Perfetto trace-event file per process, named after the runtime's full
# configuration so that several files can be opened side by side.
require "json"

module Rubyrig
  module Diagnostics
    class GvlTrace
      SEGMENT = /\Agvl-(?<pid>\d+)-(?<segment>\d+)\.json\z/

      def initialize(dir)
        @dir = dir
      end

      # Merges the segments; returns the paths written, relative to the batch's artifacts dir.
      def merge(process_name:)
        segments = Dir.children(@dir).filter_map do |name|
          m = SEGMENT.match(name)
          m && [m[:pid].to_i, m[:segment].to_i, File.join(@dir, name)]
        end
        segments.group_by(&:first).sort.map do |pid, parts|
          events = parts.sort_by { |part| part[1] }.flat_map { |part| read_events(part[2]) }
          events.reject! { |e| e["ph"] == "M" && e["name"] == "process_name" && e["pid"] == pid }
          events.unshift({"ph" => "M", "pid" => pid, "name" => "process_name", "args" => {"name" => "#{process_name} (pid #{pid})"}})
          File.write(File.join(@dir, "gvl-#{pid}.json"), JSON.generate(events))
          parts.each { |part| File.delete(part[2]) }
          "trace/gvl-#{pid}.json"
        end
      end

      private

      # A process killed while tracing leaves a file without its closing bracket; what it wrote stands.
      def read_events(path)
        text = Processes::TextFile.read(path).strip
        text = text.sub(/,\s*\z/, "") + "\n]" unless text.end_with?("]")
        JSON.parse(text)
      rescue JSON::ParserError # a torn last event: keep the complete lines before it
        lines = Processes::TextFile.each_line(path).map(&:strip).select { |l| l.start_with?("{") }.map { |l| l.chomp(",") }
        lines.filter_map do |line|
          JSON.parse(line)
        rescue JSON::ParserError # the torn one
          nil
        end
      end
    end
  end
end
