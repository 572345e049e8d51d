# Reads the files rubyrig and the programs it runs write (JSON, logs, lockfiles) as UTF-8 whatever the
# locale says, so that a machine without LANG (where Ruby defaults to US-ASCII) reads them the same.
require "json"

module Rubyrig
  module Processes
    module TextFile
      module_function

      # The whole file as a valid UTF-8 string; bytes that are not UTF-8 become U+FFFD.
      def read(path) = File.read(path, encoding: Encoding::UTF_8).scrub

      def json(path) = JSON.parse(read(path))

      # Each line of the file, as valid UTF-8 strings.
      def each_line(path, &block) = File.foreach(path, encoding: Encoding::UTF_8).map(&:scrub).each(&block)

      # The last `lines` non-blank lines of a log, joined with `separator` and cut to `chars`; nil when
      # the file does not exist.
      def tail(path, lines: 1, chars: 300, separator: " | ")
        return nil unless File.exist?(path)
        each_line(path).map(&:strip).reject(&:empty?).last(lines).join(separator)[0, chars]
      end
    end
  end
end
