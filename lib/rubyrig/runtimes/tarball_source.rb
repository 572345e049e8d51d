# CRuby's source from a tarball the user gives with --source: unpacked with tar, after a check that it
# carries the bundled gems, because `make install` would otherwise try to download them.
require "digest"
require "fileutils"

module Rubyrig
  module Runtimes
    class TarballSource
      attr_reader :path

      def initialize(path:, log:, progress:)
        @path = File.expand_path(path)
        @log = log
        @progress = progress
        raise BuildError, "source tarball #{path} does not exist; give the path of a ruby-X.Y.Z.tar.gz" unless File.file?(@path)
      end

      def kind = "tarball"

      def describe = "tarball #{@path}"

      def facts = {"kind" => kind, "path" => @path, "sha256" => Digest::SHA256.file(@path).hexdigest}

      def unpack(dir)
        @progress.phase("unpacking", "tar -xf #{File.basename(@path)}")
        FileUtils.mkdir_p(dir)
        @log.run(["tar", "-xf", @path, "--strip-components=1", "-C", dir])
        missing = self.class.missing_bundled_gems(dir)
        unless missing.empty?
          raise BuildError, "#{File.basename(@path)} lacks the bundled gem files (#{missing.first(3).join(", ")}...), so " \
            "`make install` would try to download them; use the release tarball from ruby-lang.org, or leave out --source " \
            "to build from Debian's patched source package"
        end
        dir
      end

      # The gems/NAME-VERSION.gem files that gems/bundled_gems lists but the source tree lacks.
      def self.missing_bundled_gems(dir)
        list = File.join(dir, "gems", "bundled_gems")
        return [] unless File.file?(list)
        File.readlines(list).filter_map do |line|
          name, version = line.sub(/#.*/, "").split
          next unless name && version
          file = "gems/#{name}-#{version}.gem"
          file unless File.file?(File.join(dir, file))
        end
      end
    end
  end
end
