# A file or folder name made from data (a run's name, a workload's, a runtime's label): letters,
# digits, '.', '_' and '-' only, so that no value can add a folder, climb out with "../" or hide a
# character; and at most MAX_BYTES long, with a digest of the whole value when it had to be cut, so
# that two long values that share a beginning still get two names.
require "digest"

module Rubyrig
  module Processes
    module FileName
      MAX_BYTES = 60

      module_function

      def safe(text, max: MAX_BYTES)
        name = text.to_s.gsub(/[^A-Za-z0-9_.-]+/, "-")
        name = "-#{name}" if name.match?(/\A\.+\z/)
        return name if name.bytesize <= max
        "#{name[0, max - 9]}-#{Digest::SHA256.hexdigest(text.to_s)[0, 8]}"
      end
    end
  end
end
