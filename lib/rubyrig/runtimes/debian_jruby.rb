# A newer JRuby than the system's, from Debian's own packages, installed beside the system and not
# into it: apt reads a newer suite (trixie for 9.4, sid for 10) from a private state in the cache, so
# the system's sources, lists and jruby stay untouched; `apt-get download` fetches jruby and the Java
# libraries it depends on, `dpkg-deb -x` unpacks them into <cache>/rubies/NAME, and the absolute
# /usr/share/java paths that Debian's JRuby loads its jars from are pointed at that tree. The system's
# Java runs it, so its version is checked first.
require "fileutils"
require "json"
require "time"

module Rubyrig
  module Runtimes
    class DebianJruby
      # What one `rubyrig install NAME` fetches: the suite that has it, the upstream version prefix, and
      # the oldest Java it runs on.
      Release = Struct.new(:name, :suite, :version_prefix, :java, keyword_init: true)

      RELEASES = [
        Release.new(name: "jruby-9.4", suite: "trixie", version_prefix: "9.4.", java: 8).freeze,
        Release.new(name: "jruby-10", suite: "sid", version_prefix: "10.", java: 21).freeze
      ].to_h { |r| [r.name, r] }.freeze

      # An installed JRuby, as its marker file records it; cached says this call found it installed.
      Result = Struct.new(:name, :prefix, :ruby, :version, :debian_version, :suite, :packages, :description,
        :installed_at, :cached, keyword_init: true) do
        def to_json_data = to_h.except(:cached, :prefix, :ruby).transform_keys(&:to_s)
      end

      MARKER = "rubyrig-install.json"
      KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
      DEFAULT_MIRROR = "http://deb.debian.org/debian"
      # Dependencies that are the Java runtime itself: the system's Java runs JRuby instead.
      JAVA_RUNTIMES = /\A(default-jre|default-jre-headless|java\d*-runtime(-headless)?|openjdk-\d+-jre(-headless)?)\z/
      # Debian's JRuby loads these jars by absolute path from its Ruby files.
      SYSTEM_JARS = "/usr/share/java/"
      VERIFY_SCRIPT = 'require "openssl"; require "psych"; require "bundler"; print JRUBY_VERSION, "\t", RUBY_VERSION'
      LISTS_MAX_AGE_S = 24 * 3600

      def self.names = RELEASES.keys

      # The environment of every command: noninteractive apt, and none of the caller's Ruby settings
      # (RUBYOPT=-rbundler/setup from `bundle exec` would load the caller's bundle into JRuby).
      def self.clean_env = Builder::NEUTRALIZED_ENV.to_h { |k| [k, nil] }.merge("DEBIAN_FRONTEND" => "noninteractive")

      def self.release(name)
        RELEASES.fetch(name) do
          raise UsageError, "unknown runtime '#{name}' to install; #{Suggest.hint(name, names, fallback: "rubyrig installs #{names.join(", ")}")}"
        end
      end

      # log: a BuildLog; progress: a BuildProgress; java: the java that will run it (PATH's by default).
      def initialize(name:, cache_dir:, log:, progress:, java: nil, mirror: DEFAULT_MIRROR, env: ENV.to_h)
        @release = self.class.release(name)
        @cache_dir = cache_dir
        @log = log
        @progress = progress
        @java = java || Processes::Which.find("java", path: env.fetch("PATH", ""))
        @mirror = mirror
      end

      def prefix = File.join(@cache_dir, "rubies", @release.name)

      def ruby = File.join(prefix, "bin", "jruby")

      def apt_dir = File.join(@cache_dir, "apt", @release.suite)

      # The installed JRuby called name, or nil. A directory without a marker is not an install.
      def cached
        marker = File.join(prefix, MARKER)
        return nil unless File.file?(marker) && Processes::Which.executable?(ruby)
        data = Processes::TextFile.json(marker)
        Result.new(**data.slice(*Result.members.map(&:to_s)).transform_keys(&:to_sym), prefix: prefix, ruby: ruby,
          cached: true).freeze
      rescue JSON::ParserError # a damaged marker: install again rather than trust it
        nil
      end

      def install(force: false)
        unless force
          found = cached
          return found if found
        end
        check_java!
        update_lists
        version, depends = find_version
        debs = download(version, depends)
        stage = "#{prefix}.partial-#{Process.pid}"
        unpack(debs, stage)
        place(stage)
        description = verify
        result = Result.new(name: @release.name, prefix: prefix, ruby: ruby, version: description[/\Ajruby (\S+)/, 1],
          debian_version: version, suite: @release.suite, packages: debs.map { |d| File.basename(d, ".deb") },
          description: description, installed_at: Time.now.utc.iso8601, cached: false).freeze
        File.write(File.join(prefix, MARKER), JSON.pretty_generate(result.to_json_data))
        result
      ensure
        FileUtils.rm_rf(stage) if stage
      end

      # The major version of a `java -version` output ("1.8.0_402" is 8, "17.0.15" is 17).
      def self.java_major(text)
        version = text[/version "([^"]+)"/, 1] or return nil
        parts = version.split(/[._-]/).map(&:to_i)
        (parts.first == 1) ? parts[1] : parts.first
      end

      # The paths Debian's JRuby loads by absolute path, pointed into root instead.
      def self.relocate(text, root) = text.gsub(SYSTEM_JARS, File.join(root, "usr", "share", "java") + "/")

      # The package names of a Depends field, without versions, alternatives beyond the first, or Java.
      def self.dependencies(field)
        field.to_s.split(",").map { |d| d.split("|").first.strip[/\A[a-z0-9][a-z0-9+.-]*/] }.compact
          .reject { |d| d.match?(JAVA_RUNTIMES) }.uniq
      end

      private

      def check_java!
        raise BuildError, "#{@release.name} runs on Java, and no java is on PATH: install default-jre-headless" unless @java
        out, err, = Processes::Child.capture([@java, "-version"], timeout_s: 60)
        major = self.class.java_major(out + err)
        return if major && major >= @release.java
        raise BuildError, "#{@release.name} needs Java #{@release.java} or later, but #{@java} is Java #{major || "of unknown version"}; " \
          "install a newer JDK and put its java first on PATH#{" (or use jruby-9.4, which runs on Java 8 and later)" unless @release.name == "jruby-9.4"}"
      end

      def apt_options
        [
          "-o", "Dir::State::Lists=#{File.join(apt_dir, "lists")}", "-o", "Dir::Cache=#{File.join(apt_dir, "cache")}",
          "-o", "Dir::Cache::archives=#{File.join(apt_dir, "archives")}", "-o", "Dir::Etc::sourcelist=#{sources_path}",
          "-o", "Dir::Etc::sourceparts=-", "-o", "APT::Get::List-Cleanup=0", "-o", "APT::Sandbox::User=root"
        ]
      end

      def sources_path = File.join(apt_dir, "debian.sources")

      def sources_text
        <<~TEXT
          # Written by rubyrig: Debian #{@release.suite}, read only by rubyrig's own apt calls (never by the system's apt).
          Types: deb
          URIs: #{@mirror}
          Suites: #{@release.suite}
          Components: main
          #{"Signed-By: #{KEYRING}" if File.exist?(KEYRING)}
        TEXT
      end

      # Refreshes the private package lists when they are missing or older than a day.
      def update_lists
        %w[lists/partial cache archives/partial].each { |d| FileUtils.mkdir_p(File.join(apt_dir, d)) }
        File.write(sources_path, sources_text) unless File.exist?(sources_path) && File.read(sources_path) == sources_text
        stamp = File.join(apt_dir, "updated")
        return if File.exist?(stamp) && Time.now - File.mtime(stamp) < LISTS_MAX_AGE_S
        @progress.phase("apt-get update", "Debian #{@release.suite}'s package lists, kept in #{apt_dir}")
        @log.run(["apt-get", *apt_options, "update"])
        FileUtils.touch(stamp)
      end

      # The newest version of jruby with the release's prefix, and its dependencies.
      def find_version
        out, err, exit = Processes::Child.capture(["apt-cache", *apt_options, "show", "jruby"], timeout_s: 120)
        raise BuildError, "apt-cache show jruby failed: #{err.lines.last.to_s.strip}; see #{@log.path}" unless exit.success?
        records = out.split(/\n\s*\n/).map { |r| r.scan(/^(Version|Depends): (.+)$/).to_h }
        wanted = records.select { |r| r["Version"].to_s.sub(/\A\d+:/, "").start_with?(@release.version_prefix) }
        newest = wanted.max { |a, b| compare(a["Version"], b["Version"]) }
        unless newest
          versions = records.map { |r| r["Version"] }.compact.join(", ")
          raise BuildError, "Debian #{@release.suite} has no jruby #{@release.version_prefix}x (it has #{versions.empty? ? "none" : versions})"
        end
        [newest["Version"], self.class.dependencies(newest["Depends"])]
      end

      def compare(a, b)
        return 0 if a == b
        _out, _err, exit = Processes::Child.capture(["dpkg", "--compare-versions", a, "gt", b], timeout_s: 30)
        exit.success? ? 1 : -1
      end

      def download(version, depends)
        dir = File.join(apt_dir, "debs", version)
        FileUtils.mkdir_p(dir)
        @progress.phase("downloading", "jruby #{version} and #{depends.size} Java libraries from Debian #{@release.suite}")
        @log.run(["apt-get", *apt_options, "download", "jruby=#{version}", *depends.map { |d| "#{d}/#{@release.suite}" }], chdir: dir)
        Dir.glob(File.join(dir, "*.deb")).sort
      end

      def unpack(debs, stage)
        FileUtils.rm_rf(stage)
        FileUtils.mkdir_p(stage)
        @progress.phase("unpacking", "dpkg-deb -x of #{debs.size} packages")
        debs.each { |deb| @log.run(["dpkg-deb", "-x", deb, stage]) }
        relocate_tree(stage)
        FileUtils.mkdir_p(File.join(stage, "bin"))
        File.symlink(File.join("..", "usr", "share", "jruby", "bin", "jruby"), File.join(stage, "bin", "jruby"))
      end

      # Rewrites the Ruby files that load jars from /usr/share/java to load them from the final tree.
      def relocate_tree(stage)
        Dir.glob(File.join(stage, "usr", "share", "jruby", "lib", "ruby", "**", "*.rb")).each do |file|
          next if File.symlink?(file)
          text = File.binread(file)
          next unless text.include?(SYSTEM_JARS)
          File.binwrite(file, self.class.relocate(text, prefix))
          @log.write("relocated #{SYSTEM_JARS} in #{file.delete_prefix(stage)}")
        end
      end

      def place(stage)
        FileUtils.rm_rf(prefix)
        FileUtils.mkdir_p(File.dirname(prefix))
        File.rename(stage, prefix)
      end

      # Runs the installed JRuby once (OpenSSL, Psych and Bundler load their jars); returns its -v line.
      def verify
        @progress.phase("verifying", "#{ruby} -e 'require \"openssl\"; require \"psych\"; require \"bundler\"'")
        @log.run([ruby, "-e", VERIFY_SCRIPT])
        out, err, exit = Processes::Child.capture([ruby, "-v"], env: self.class.clean_env, timeout_s: 120)
        raise BuildError, "#{ruby} -v #{exit.describe}: #{err.strip[0, 200]}" unless exit.success?
        out.strip
      rescue BuildError
        FileUtils.rm_rf(prefix)
        raise
      end
    end
  end
end
