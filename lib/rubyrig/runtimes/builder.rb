# Builds CRuby from source into <cache>/rubies/NAME: picks the source (a --source tarball, else
# ruby-build when it knows the version, else Debian's source package), checks build dependencies,
# configures with YJIT when rustc is there, compiles, installs into a staging directory and moves the
# result into place, verifies it, and writes the marker that makes the next call a cache hit. A failed
# or interrupted build never leaves a directory that looks finished.
require "etc"
require "fileutils"
require "json"
require "shellwords"
require "time"

module Rubyrig
  module Runtimes
    class Builder
      # What to build, from the command line.
      Request = Struct.new(:version, :name, :jemalloc, :configure_opts, :source, :jobs, :force, keyword_init: true)

      # A finished build, as its marker file records it; cached says this call found it already built.
      Result = Struct.new(:name, :prefix, :ruby, :version, :description, :source, :configure_args, :extra_configure_args,
        :yjit, :jemalloc, :rustc, :jobs, :duration_s, :built_at, :log, :rubyrig_version, :cached, keyword_init: true) do
        def to_json_data = to_h.except(:cached).transform_keys(&:to_s)
      end

      MARKER = "rubyrig-build.json"
      VERSION_PATTERN = /\A\d+\.\d+\.\d+(?:-[a-z0-9]+)?\z/
      NAME_PATTERN = /\A[A-Za-z0-9][A-Za-z0-9._-]*\z/
      MIN_RUSTC = Gem::Version.new("1.58.0")
      # Inherited settings that would change what configure, make or the built ruby do.
      NEUTRALIZED_ENV = %w[RUBYOPT RUBYLIB GEM_HOME GEM_PATH BUNDLE_GEMFILE BUNDLE_BIN_PATH BUNDLER_SETUP
        RUBY_YJIT_ENABLE LD_PRELOAD MAKEFLAGS MFLAGS MAKELEVEL].freeze
      VERIFY_SCRIPT = 'require "openssl"; require "psych"; require "zlib"; require "rbconfig"; ' \
        'yjit = defined?(RubyVM::YJIT); print RUBY_VERSION, "\t", (yjit ? 1 : 0), "\t", ' \
        '(yjit && RubyVM::YJIT.enabled? ? 1 : 0), "\t", RbConfig::CONFIG["MAINLIBS"]'

      def self.default_name(version, jemalloc) = jemalloc ? "#{version}-jemalloc" : version

      # packages: installs Debian packages (an Apt); debian_options: keyword arguments for DebianSource
      # (tests give apt a private state); arch: the Debian architecture build dependencies are read for.
      def initialize(cache_dir:, env:, progress:, packages:, root: Process.euid.zero?, debian_options: {},
        arch: nil, clock: -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) })
        @cache_dir = cache_dir
        @env = env
        @progress = progress
        @packages = packages
        @root = root
        @debian_options = debian_options
        @arch = arch
        @clock = clock
      end

      def prefix(name) = File.join(@cache_dir, "rubies", name)

      # The finished build called name, or nil. A directory without a marker is not a build.
      def cached(name)
        marker = File.join(prefix(name), MARKER)
        return nil unless File.file?(marker) && Processes::Which.executable?(File.join(prefix(name), "bin", "ruby"))
        data = Processes::TextFile.json(marker)
        Result.new(**data.slice(*Result.members.map(&:to_s)).transform_keys(&:to_sym),
          prefix: prefix(name), ruby: File.join(prefix(name), "bin", "ruby"), cached: true).freeze
      rescue JSON::ParserError # a damaged marker: build again rather than trust it
        nil
      end

      # Builds unless a build with the same options is cached; returns the Result.
      def build(request)
        validate!(request)
        with_lock(request.name) do
          hit = cached(request.name)
          if hit && !request.force
            check_same_options!(hit, request)
            return hit
          end
          fresh_build(request)
        end
      end

      def extra_args(request) = Shellwords.split(request.configure_opts.to_s)

      private

      def validate!(request)
        unless request.version.to_s.match?(VERSION_PATTERN)
          raise UsageError, "version '#{request.version}' is not X.Y.Z: give a full CRuby version such as 3.3.8"
        end
        unless request.name.to_s.match?(NAME_PATTERN)
          raise UsageError, "build name '#{request.name}' may only hold letters, digits, '.', '_' and '-'"
        end
        raise UsageError, "--jobs must be at least 1" if request.jobs && request.jobs < 1
      end

      def check_same_options!(hit, request)
        same = hit.jemalloc == !!request.jemalloc && Array(hit.extra_configure_args) == extra_args(request)
        return if same
        raise BuildError, "#{request.name} is already built with other options (jemalloc: #{hit.jemalloc}, " \
          "configure: #{Array(hit.extra_configure_args).join(" ")}); give --name for a second build or --force to rebuild it"
      end

      def with_lock(name)
        lock_path = File.join(@cache_dir, "builds", "#{name}.lock")
        FileUtils.mkdir_p(File.dirname(lock_path))
        File.open(lock_path, File::RDWR | File::CREAT, 0o644) do |lock|
          unless lock.flock(File::LOCK_EX | File::LOCK_NB)
            @progress.note("Waiting for another rubyrig build of #{name} to finish (#{lock_path})")
            lock.flock(File::LOCK_EX)
          end
          yield
        end
      end

      def fresh_build(request)
        work = File.join(@cache_dir, "builds", request.name)
        FileUtils.rm_rf(work)
        log = BuildLog.new(path: File.join(work, "build.log"), progress: @progress, env: build_env)
        started = @clock.call
        source, args, rustc = build_from_first_source(request, work, log)
        result = verify_and_mark(request, source, args, rustc, log, @clock.call - started)
        Dir.children(work).each { |f| FileUtils.rm_rf(File.join(work, f)) unless f == File.basename(log.path) }
        result
      end

      # Tries the sources in order; ruby-build that cannot download hands over to Debian's package.
      # Returns the source used, the configure arguments and the rustc found (they depend on what the
      # source's dependencies installed).
      def build_from_first_source(request, work, log)
        sources = candidate_sources(request, log)
        sources.each_with_index do |source, index|
          if source.is_a?(DebianSource)
            install_declared_dependencies(source, request)
          else
            deps = BuildDeps.new(path: build_env["PATH"], root: @root)
            deps.check!(deps.required(version: request.version, jemalloc: request.jemalloc, tarball: request.source))
          end
          rustc = find_rustc
          args = configure_args(request, rustc)
          @progress.note("Building ruby #{request.version} into #{prefix(request.name)} from #{source.describe}")
          @progress.note("Build log: #{log.path}") if index.zero?
          if source.is_a?(RubyBuild)
            install_with_ruby_build(source, request, args, File.join(work, "ruby-build"))
          else
            install_with_make(source, request, work, log, args)
          end
          return [source, args, rustc]
        rescue BuildError
          raise unless source.is_a?(RubyBuild) && source.download_failed? && sources[index + 1]
          @progress.note("ruby-build could not download the source (offline?); falling back to the next source")
        end
      end

      # A build from Debian's source package installs what the package declares, plus what rubyrig's own
      # configure options add: rustc for YJIT (when none is installed) and jemalloc's headers.
      def install_declared_dependencies(source, request)
        packages = source.build_dependencies(arch: arch, installed: @packages.method(:installed?))
        packages << "rustc" if yjit_wanted?(request) && !find_rustc
        packages << "libjemalloc-dev" if request.jemalloc
        @packages.ensure!(packages, why: "building CRuby #{request.version} from #{source.describe}")
      end

      def arch
        @arch ||= begin
          out, _err, exit = Processes::Child.capture(%w[dpkg --print-architecture], timeout_s: 30)
          exit.success? ? out.strip : raise(BuildError, "`dpkg --print-architecture` failed; is this a Debian system?")
        end
      end

      def candidate_sources(request, log)
        return [TarballSource.new(path: request.source, log: log, progress: @progress)] if request.source
        sources = []
        ruby_build = RubyBuild.new(path: build_env["PATH"], log: log, progress: @progress)
        sources << ruby_build if ruby_build.knows?(request.version)
        if DebianSource.applicable?(request.version)
          sources << DebianSource.new(version: request.version, cache_dir: @cache_dir, log: log, progress: @progress,
            root: @root, **@debian_options)
        end
        return sources unless sources.empty?
        raise BuildError, "no source for ruby #{request.version}: ruby-build is #{ruby_build.executable ? "too old to know it" : "not installed"} " \
          "and Debian ships no source package for it; give --source ruby-#{request.version}.tar.gz"
      end

      # ruby-build installs in place, so any failure or Ctrl-C removes the half-built prefix.
      def install_with_ruby_build(source, request, args, work_dir)
        done = false
        FileUtils.rm_rf(prefix(request.name))
        source.install(request.version, prefix(request.name), args.reject { |a| a.start_with?("--prefix=") },
          jobs: jobs(request), work_dir: work_dir)
        done = true
      ensure
        FileUtils.rm_rf(prefix(request.name)) unless done
      end

      def install_with_make(source, request, work, log, args)
        src = source.unpack(File.join(work, "src"))
        regenerate_configure(src, log)
        @progress.phase("configure", args.join(" "))
        log.run([File.join(src, "configure"), *args], chdir: src)
        @progress.phase("make", "-j#{jobs(request)}")
        log.run(["make", "-j#{jobs(request)}"], chdir: src)
        stage = File.join(work, "stage")
        @progress.phase("install", "make install into a staging directory")
        log.run(["make", "install", "DESTDIR=#{stage}"], chdir: src)
        move_into_place(File.join(stage, prefix(request.name)), prefix(request.name), work)
      end

      # A source without configure gets one from autogen.sh. One whose configure.ac is newer than its
      # configure (Debian's patches touch configure.ac) gets autoconf now, as make would do after a
      # whole configure run, so that configure runs once.
      def regenerate_configure(src, log)
        configure = File.join(src, "configure")
        missing = !File.exist?(configure)
        stale = !missing && File.exist?(File.join(src, "configure.ac")) && File.mtime(File.join(src, "configure.ac")) > File.mtime(configure)
        return unless missing || stale
        deps = BuildDeps.new(path: build_env["PATH"], root: @root)
        deps.check!([BuildDeps::AUTOCONF, BuildDeps::BISON])
        if missing
          @progress.phase("autogen", "the source has no configure script")
          log.run([File.join(src, "autogen.sh")], chdir: src)
        else
          @progress.phase("autoconf", "configure.ac is newer than configure (patched)")
          log.run(["autoconf", "-o", "configure"], chdir: src)
        end
      end

      # Swaps the staged tree in with renames, so the prefix is either the old build or the new one.
      def move_into_place(staged, target, work)
        raise BuildError, "make install put nothing in #{staged}; see #{File.join(work, "build.log")}" unless File.directory?(staged)
        FileUtils.mkdir_p(File.dirname(target))
        previous = File.join(work, "previous")
        File.rename(target, previous) if File.exist?(target)
        File.rename(staged, target)
        FileUtils.rm_rf(previous)
      end

      def verify_and_mark(request, source, args, rustc, log, duration_s)
        target = prefix(request.name)
        @progress.phase("verify", "#{target}/bin/ruby loads openssl, psych and zlib#{", runs with --yjit" if yjit?(args)}")
        ruby = File.join(target, "bin", "ruby")
        argv = [ruby, *(yjit?(args) ? ["--yjit"] : []), "-e", VERIFY_SCRIPT]
        out, err, exit = Processes::Child.capture(argv, env: build_env, timeout_s: 120)
        version, yjit, yjit_enabled, mainlibs = out.split("\t")
        problem = if !exit.success? then "it fails to start or to load openssl/psych/zlib: #{err.lines.last.to_s.strip}"
        elsif version != request.version then "it reports version #{version}, not #{request.version}"
        elsif yjit?(args) && yjit_enabled != "1" then "YJIT is not enabled with --yjit"
        elsif request.jemalloc && !mainlibs.to_s.include?("jemalloc") then "it does not link jemalloc (MAINLIBS: #{mainlibs})"
        end
        if problem
          FileUtils.rm_rf(target)
          raise BuildError, "the ruby built in #{target} is not usable: #{problem}; see #{log.path}"
        end
        write_marker(request, source, args, rustc, log, duration_s, yjit == "1")
      end

      def write_marker(request, source, args, rustc, log, duration_s, yjit)
        target = prefix(request.name)
        description, = Processes::Child.capture([File.join(target, "bin", "ruby"), "-e", "print RUBY_DESCRIPTION"], env: build_env)
        result = Result.new(
          name: request.name, prefix: target, ruby: File.join(target, "bin", "ruby"), version: request.version,
          description: description, source: source.facts, configure_args: args, extra_configure_args: extra_args(request),
          yjit: yjit, jemalloc: !!request.jemalloc, rustc: rustc&.fetch(:version),
          jobs: jobs(request), duration_s: duration_s.round(1), built_at: Time.now.utc.iso8601, log: log.path,
          rubyrig_version: VERSION, cached: false
        )
        File.write(File.join(target, MARKER), JSON.pretty_generate(result.to_json_data))
        result.freeze
      end

      def configure_args(request, rustc)
        args = ["--prefix=#{prefix(request.name)}", "--disable-install-doc"]
        if yjit_wanted?(request)
          if rustc
            args << "--enable-yjit"
          else
            @progress.note("No rustc >= #{MIN_RUSTC} found on PATH or in ~/.cargo/bin: building without YJIT " \
              "(install rustc, e.g. apt-get install rustc, for +yjit)")
          end
        end
        args << "--with-jemalloc" if request.jemalloc
        args + extra_args(request)
      end

      def yjit?(args) = args.include?("--enable-yjit")

      # CRuby 3.2 and later can be built with YJIT, which rubyrig always asks for.
      def yjit_wanted?(request) = Gem::Version.new(request.version.sub(/-.*/, "")) >= Gem::Version.new("3.2")

      def jobs(request) = request.jobs || Etc.nprocessors

      # rustc on PATH or in ~/.cargo/bin, with its version, when new enough for YJIT.
      def find_rustc
        @rustc ||= [Processes::Which.find("rustc", path: @env.fetch("PATH", "")), cargo_rustc].compact.filter_map do |path|
          out, _err, exit = Processes::Child.capture([path, "--version"], timeout_s: 30)
          number = out[/\d+\.\d+\.\d+/]
          {path: path, version: out.strip} if exit.success? && number && Gem::Version.new(number) >= MIN_RUSTC
        end.first
      end

      def cargo_rustc
        path = File.join(@env.fetch("HOME", Dir.home), ".cargo", "bin", "rustc")
        Processes::Which.executable?(path) ? path : nil
      end

      # The environment of every build command: rustc's directory on PATH and nothing inherited that
      # changes how Ruby builds or runs.
      def build_env
        @build_env ||= begin
          dirs = @env.fetch("PATH", "").split(File::PATH_SEPARATOR)
          rustc_dir = cargo_rustc && File.dirname(cargo_rustc)
          dirs.unshift(rustc_dir) if rustc_dir && !dirs.include?(rustc_dir)
          NEUTRALIZED_ENV.to_h { |k| [k, nil] }.merge("PATH" => dirs.join(File::PATH_SEPARATOR))
        end
      end
    end
  end
end
