# Lists candidate Ruby executables: PATH, rbenv, asdf, mise, chruby, rvm, /opt/rubies and rubyrig's
# own build cache. It only finds files; Fingerprint says what each one is.
module Rubyrig
  module Runtimes
    class Discovery
      Candidate = Struct.new(:name, :path, :source, keyword_init: true)

      PATH_NAMES = %w[ruby jruby].freeze

      def initialize(env:, cache_dir:)
        @env = env
        @cache_dir = cache_dir
      end

      def candidates
        found = path_candidates + manager_candidates
        seen = {}
        found.select do |candidate|
          real = File.realpath(candidate.path)
          seen[real] ? false : (seen[real] = true)
        rescue Errno::ENOENT # dangling symlink
          false
        end
      end

      # Version-manager and build-cache roots, each "<root>/<name>/bin/ruby".
      def roots
        home = @env.fetch("HOME", Dir.home)
        [
          ["rubyrig", File.join(@cache_dir, "rubies")],
          ["rbenv", File.join(@env.fetch("RBENV_ROOT", File.join(home, ".rbenv")), "versions")],
          ["asdf", File.join(@env.fetch("ASDF_DATA_DIR", File.join(home, ".asdf")), "installs", "ruby")],
          ["mise", File.join(@env.fetch("MISE_DATA_DIR", File.join(home, ".local", "share", "mise")), "installs", "ruby")],
          ["chruby", File.join(home, ".rubies")],
          ["chruby", "/opt/rubies"],
          ["rvm", File.join(@env.fetch("rvm_path", File.join(home, ".rvm")), "rubies")],
          ["rvm", "/usr/local/rvm/rubies"]
        ]
      end

      private

      def path_candidates
        dirs = @env.fetch("PATH", "").split(File::PATH_SEPARATOR)
        PATH_NAMES.filter_map do |program|
          dir = dirs.find { |d| Processes::Which.executable?(File.join(d, program)) }
          next unless dir
          Candidate.new(name: (program == "ruby") ? "system" : program, path: File.join(dir, program), source: "PATH")
        end
      end

      def manager_candidates
        roots.flat_map do |source, root|
          Dir.glob(File.join(root, "*")).sort.filter_map do |dir|
            path = %w[ruby jruby].map { |exe| File.join(dir, "bin", exe) }.find { |p| Processes::Which.executable?(p) }
            path && Candidate.new(name: File.basename(dir), path: path, source: source)
          end
        end
      end
    end
  end
end
