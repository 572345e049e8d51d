# Makes `ruby` on PATH mean the runtime's own interpreter when that interpreter is installed under
# another name (jruby): a directory in the cache holding a `ruby` symlink, put first on PATH together
# with the interpreter's real bin directory (its gem, irb and bundle).
require "fileutils"

module Rubyrig
  module Runtimes
    class Shim
      def initialize(root:)
        @root = root
      end

      # The directories to put first on PATH when running interpreter, most specific first.
      def bin_dirs(interpreter)
        return [interpreter.bin_dir] if File.basename(interpreter.path) == "ruby"
        real = File.realpath(interpreter.path)
        dir = File.join(@root, interpreter.fingerprint)
        link = File.join(dir, "ruby")
        unless File.symlink?(link) && File.readlink(link) == real
          FileUtils.mkdir_p(dir)
          tmp = "#{link}.#{Process.pid}.tmp"
          File.symlink(real, tmp)
          File.rename(tmp, link)
        end
        [dir, File.dirname(real), interpreter.bin_dir].uniq
      end
    end
  end
end
