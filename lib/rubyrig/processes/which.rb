# Finds an executable by name on a PATH string, like which(1), without a shell.
module Rubyrig
  module Processes
    module Which
      module_function

      # The absolute path of `name` (or `name` itself when it contains a slash and is executable).
      def find(name, path: ENV.fetch("PATH", ""))
        return (executable?(name) ? File.expand_path(name) : nil) if name.include?("/")
        path.split(File::PATH_SEPARATOR).each do |dir|
          candidate = File.join(dir, name)
          return candidate if executable?(candidate)
        end
        nil
      end

      def executable?(file) = File.file?(file) && File.executable?(file)
    end
  end
end
