# Builds CRuby with ruby-build when it is installed and knows the version, since that is what users
# already trust; it downloads, configures, compiles and installs in one step.
require "fileutils"

module Rubyrig
  module Runtimes
    class RubyBuild
      def initialize(path:, log:, progress:)
        @path = path
        @log = log
        @progress = progress
      end

      def executable = @executable ||= Processes::Which.find("ruby-build", path: @path)

      def kind = "ruby-build"

      # True when ruby-build is installed and lists the version among its definitions.
      def knows?(version)
        return false unless executable
        out, _err, exit = Processes::Child.capture([executable, "--definitions"], timeout_s: 60)
        exit.success? && out.lines.map(&:strip).include?(version)
      end

      def describe = "ruby-build (#{executable})"

      def facts = {"kind" => kind, "executable" => executable}

      # Installs into prefix; configure_args are the ones rubyrig adds (without --prefix). Its working
      # tree goes into work_dir (TMPDIR), which rubyrig clears, instead of /tmp.
      def install(version, prefix, configure_args, jobs:, work_dir:)
        @progress.phase("ruby-build", "#{version} #{prefix} (download, configure, make, install)")
        FileUtils.mkdir_p(work_dir)
        @log.run([executable, "--verbose", version, prefix],
          env: {"RUBY_CONFIGURE_OPTS" => configure_args.join(" "), "MAKE_OPTS" => "-j#{jobs}", "TMPDIR" => work_dir})
      end

      # ruby-build could not fetch the source (offline): another source may still work.
      def download_failed? = @log.tail_lines(200).any? { |l| l.include?("failed to download") }
    end
  end
end
