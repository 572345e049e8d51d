# Finds the libjemalloc shared library to preload for +jemalloc: the one RUBYRIG_JEMALLOC names, or
# the system's.
module Rubyrig
  module Runtimes
    class Jemalloc
      SEARCH_DIRS = %w[/usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib].freeze
      INSTALL_HINT = "install it with: apt-get install libjemalloc2"

      attr_reader :path, :problem

      # override: a library path the user chose (RUBYRIG_JEMALLOC), checked instead of searching.
      def initialize(override: nil, dirs: SEARCH_DIRS)
        if override && !override.empty?
          @path = File.file?(override) ? override : nil
          @problem = "RUBYRIG_JEMALLOC names #{override}, which does not exist; fix the path or unset it" unless @path
        else
          @path = search(dirs)
          @problem = "no libjemalloc is installed: #{INSTALL_HINT}" unless @path
        end
      end

      private

      def search(dirs)
        dirs.each do |dir|
          %w[libjemalloc.so.2 libjemalloc.so].each do |file|
            candidate = File.join(dir, file)
            return candidate if File.file?(candidate)
          end
        end
        nil
      end
    end
  end
end
