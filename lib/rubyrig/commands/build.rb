# `rubyrig build VERSION`: builds CRuby from source into rubyrig's cache, or says it is already there.
require "shellwords"

module Rubyrig
  module Commands
    class Build < Base
      BANNER = <<~TEXT
        Usage: rubyrig build VERSION [options]

        Builds CRuby VERSION (with YJIT when rustc is installed) into CACHE/rubies/NAME, where runtime
        specs such as VERSION+yjit find it. A build that is already there returns at once.
        Source: --source TARBALL if given, else ruby-build if it knows VERSION, else Debian's source
        package (apt-get source rubyX.Y; as root rubyrig adds the deb-src entry it needs).

        Example: rubyrig build 3.3.8 && rubyrig build 3.3.8 --jemalloc

        Options:
      TEXT

      def call
        request = {jemalloc: false, force: false}
        parser = OptionParser.new do |opts|
          opts.banner = BANNER
          opts.on("--jemalloc", "link jemalloc (configure --with-jemalloc); default name VERSION-jemalloc") { request[:jemalloc] = true }
          opts.on("--name NAME", "directory name in the cache and runtime name (default: VERSION)") { |n| request[:name] = n }
          opts.on("--configure-opts OPTS", "extra ./configure options, split like a shell would") do |o|
            Shellwords.split(o)
            request[:configure_opts] = o
          rescue ArgumentError # Shellwords' only complaint: a quote that is never closed
            raise UsageError, "--configure-opts has an unmatched quote in #{o.inspect}; close it"
          end
          opts.on("--source TARBALL", "build from this source tarball (ruby-X.Y.Z.tar.gz)") { |s| request[:source] = s }
          opts.on("-j", "--jobs N", Integer, "parallel make jobs (default: the number of CPUs)") { |j| request[:jobs] = j }
          opts.on("--force", "build again even if the build is cached") { request[:force] = true }
        end
        if @argv.empty? || @argv.intersect?(%w[-h --help])
          out.puts(parser.help.sub("CACHE", @settings.cache_dir))
          return @argv.empty? ? CLI::EXIT_USAGE : CLI::EXIT_OK
        end
        rest = parser.parse(@argv)
        raise UsageError, "give one version, e.g. `rubyrig build 3.3.8`; got '#{rest.join(" ")}'" unless rest.size == 1
        request[:version] = rest.first
        request[:name] ||= Rubyrig::Runtimes::Builder.default_name(request[:version], request[:jemalloc])
        build(Rubyrig::Runtimes::Builder::Request.new(**request).freeze)
      end

      private

      def build(request)
        progress = Rubyrig::Runtimes::BuildProgress.new(io: err, tty: @settings.tty)
        builder = Rubyrig::Runtimes::Builder.new(cache_dir: @settings.cache_dir, env: @settings.env, progress: progress,
          packages: Apt.new(io: err, env: @settings.env))
        result = builder.build(request)
        if result.cached
          out.puts("#{result.name} is already built: #{result.description}")
          out.puts("  #{result.prefix} (built #{result.built_at} in #{progress.clock_text(result.duration_s)} from #{source_text(result.source)}; --force rebuilds)")
        else
          out.puts("Built #{result.name} in #{progress.clock_text(result.duration_s)}: #{result.description}")
          out.puts("  #{result.prefix}; build log: #{result.log}")
        end
        out.puts("  use it as a runtime: #{runtime_examples(result)}")
        CLI::EXIT_OK
      rescue Interrupt
        err.puts("\nrubyrig: build interrupted; nothing was installed into #{builder.prefix(request.name)}")
        CLI::EXIT_INTERRUPTED
      end

      def runtime_examples(result)
        examples = [result.name]
        examples << "#{result.name}+yjit" if result.yjit
        examples << "#{result.name}+mn" if Gem::Version.new(result.version.sub(/-.*/, "")) >= Gem::Version.new("3.3")
        examples.map { |e| "-r #{e}" }.join(", ")
      end

      def source_text(source)
        case source["kind"]
        when "debian" then "Debian's #{source["package"]} #{source["debian_version"]}"
        when "tarball" then source["path"]
        else source["kind"]
        end
      end
    end
  end
end
