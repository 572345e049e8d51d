# `rubyrig install jruby-9.4`: installs a newer JRuby from Debian's packages into rubyrig's cache.
require "fileutils"

module Rubyrig
  module Commands
    class Install < Base
      BANNER = <<~TEXT
        Usage: rubyrig install NAME [options]

        Installs NAME into CACHE/rubies/NAME, where the runtime spec NAME (e.g. -r NAME) finds it,
        without touching the system: apt reads Debian's newer suite from a private state in CACHE/apt,
        downloads the jruby package and the Java libraries it needs, and dpkg-deb unpacks them.
        The system's Java runs it. An install that is already there returns at once.

        NAME: jruby-9.4 (Debian trixie; Java 8 or later), jruby-10 (Debian sid; Java 21 or later).

        Example: rubyrig install jruby-9.4 && rubyrig compare -r system -r jruby-9.4 -- builtin:sidekiq-noop

        Options:
      TEXT

      def call
        options = {force: false, mirror: Rubyrig::Runtimes::DebianJruby::DEFAULT_MIRROR}
        parser = OptionParser.new do |opts|
          opts.banner = BANNER
          opts.on("--mirror URL", "Debian mirror to download from (default: #{Rubyrig::Runtimes::DebianJruby::DEFAULT_MIRROR})") { |m| options[:mirror] = m }
          opts.on("--force", "install again even if it is installed") { options[:force] = true }
        end
        if @argv.empty? || @argv.intersect?(%w[-h --help])
          out.puts(parser.help.gsub("CACHE", @settings.cache_dir))
          return @argv.empty? ? CLI::EXIT_USAGE : CLI::EXIT_OK
        end
        rest = parser.parse(@argv)
        raise UsageError, "give one name, e.g. `rubyrig install jruby-9.4`; got '#{rest.join(" ")}'" unless rest.size == 1
        install(rest.first, options)
      end

      private

      def install(name, options)
        Rubyrig::Runtimes::DebianJruby.release(name)
        progress = Rubyrig::Runtimes::BuildProgress.new(io: err, tty: @settings.tty)
        log_path = File.join(@settings.cache_dir, "installs", "#{name}.log")
        FileUtils.mkdir_p(File.dirname(log_path))
        log = Rubyrig::Runtimes::BuildLog.new(path: log_path, progress: progress, env: Rubyrig::Runtimes::DebianJruby.clean_env)
        installer = Rubyrig::Runtimes::DebianJruby.new(name: name, cache_dir: @settings.cache_dir, log: log, progress: progress,
          mirror: options[:mirror], env: @settings.env)
        result = installer.install(force: options[:force])
        progress.clear
        if result.cached
          out.puts("#{result.name} is already installed: #{result.description}")
          out.puts("  #{result.prefix} (Debian #{result.suite}'s jruby #{result.debian_version}, installed #{result.installed_at}; --force installs again)")
        else
          out.puts("Installed #{result.name} in #{progress.clock_text(progress.elapsed_s)}: #{result.description}")
          out.puts("  #{result.prefix} (Debian #{result.suite}'s jruby #{result.debian_version} and #{result.packages.size - 1} Java libraries); log: #{log_path}")
        end
        out.puts("  use it as a runtime: -r #{result.name}")
        CLI::EXIT_OK
      rescue Interrupt
        err.puts("\nrubyrig: install interrupted; nothing was installed into #{installer&.prefix}")
        CLI::EXIT_INTERRUPTED
      end
    end
  end
end
