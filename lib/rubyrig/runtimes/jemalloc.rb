# Finds the system's libjemalloc shared library for LD_PRELOAD.
module Rubyrig
  module Runtimes
    module Jemalloc
      SEARCH_DIRS = %w[/usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib].freeze
      INSTALL_HINT = "install it with: apt-get install libjemalloc2"

      module_function

      # The path of libjemalloc.so.2 (or .so), or nil when none is installed.
      def locate(dirs: SEARCH_DIRS)
        dirs.each do |dir|
          %w[libjemalloc.so.2 libjemalloc.so].each do |file|
            path = File.join(dir, file)
            return path if File.file?(path)
          end
        end
        nil
      end
    end
  end
end
