# The cause of a failed app-server boot, read from its stdout and stderr: Puma's own "! ..." line
# (prefixed "[pid] " in cluster mode), else the first line Ruby prints for an uncaught exception
# ("file:N:in 'method': MESSAGE (Class)"), else a line that looks like an error, else the last line
# that is not part of a backtrace. Pure: takes the logs' text, returns one line.
module Rubyrig
  module Services
    module BootLog
      MAX_CHARS = 240
      PUMA_LINE = /\A(?:\[\d+\] )?! (?<cause>.+)\z/
      # Ruby's first line for an uncaught exception; the message may go on below (then no class here).
      UNCAUGHT = /\A(?<file>[^\s:][^:]*):(?<line>\d+):in [`'][^']*': (?<message>.+?)(?: \((?<class>[A-Z][\w:]*)\))?\z/
      BACKTRACE = /\A(?:from |\d+:\s)/
      ERROR_LIKE = /Error|error|Exception|cannot|Could not|can't|refused|denied|not found/
      NO_PUMA = /puma is not currently included in the bundle|can't find executable puma/

      module_function

      def cause(stdout_text, stderr_text)
        out = lines(stdout_text)
        err = lines(stderr_text)
        line = puma_line(out) || uncaught(err) || error_like(err + out) || (err + out).reject { |l| backtrace?(l) }.last || "no output"
        line = "#{line} (add gem \"puma\" to the app's Gemfile)" if line.match?(NO_PUMA)
        line[0, MAX_CHARS]
      end

      # Puma's "! ..." line, its warnings apart.
      def puma_line(lines) = lines.filter_map { |l| l[PUMA_LINE, :cause] }.find { |l| !l.start_with?("WARNING") }

      # "MESSAGE (Class) at file:N", with the file's base name.
      def uncaught(lines)
        match = lines.lazy.reject { |l| backtrace?(l) }.map { |l| UNCAUGHT.match(l) }.find(&:itself)
        return nil unless match
        "#{match[:message]}#{" (#{match[:class]})" if match[:class]} at #{File.basename(match[:file])}:#{match[:line]}"
      end

      def error_like(lines) = lines.find { |l| !backtrace?(l) && l.match?(ERROR_LIKE) }

      def backtrace?(line) = line.match?(BACKTRACE)

      def lines(text) = text.to_s.scrub.lines.map(&:strip).reject(&:empty?)
    end
  end
end
