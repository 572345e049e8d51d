# CRuby's source from Debian's source package (`apt-get source rubyX.Y`), for machines that reach
# Debian's mirrors but not ruby-lang.org. It adds a deb-src entry for the suite that carries the
# version when running as root (or says exactly what to add), downloads the package once into the
# cache, and unpacks it with Debian's patches applied; one of them keeps `make install` from
# downloading the bundled gems, which Debian's tarball lacks.
require "fileutils"

module Rubyrig
  module Runtimes
    class DebianSource
      # The Debian suite whose source package carries each Ruby minor version.
      SUITES = {"2.7" => "bullseye", "3.1" => "bookworm", "3.3" => "trixie"}.freeze
      KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
      DEFAULT_MIRROR = "http://deb.debian.org/debian"
      # Build profiles rubyrig builds with: it does not run Ruby's own test suite.
      PROFILES = %w[nocheck].freeze
      SOURCES_DIR = "/etc/apt/sources.list.d"

      attr_reader :version

      # apt_options: extra `-o` settings for every apt call (tests point apt at a private state).
      def initialize(version:, cache_dir:, log:, progress:, root: Process.euid.zero?, sources_dir: SOURCES_DIR,
        apt_options: [])
        @version = version
        @downloads = File.join(cache_dir, "sources")
        @log = log
        @progress = progress
        @root = root
        @sources_dir = sources_dir
        @apt_options = apt_options
      end

      def kind = "debian"

      def minor = version.split(".").first(2).join(".")

      def package = "ruby#{minor}"

      def suite = SUITES[minor]

      def self.applicable?(version) = version.match?(/\A\d+\.\d+\.\d+\z/) && SUITES.key?(version.split(".").first(2).join("."))

      # The Debian version of the source package, e.g. "3.3.8-2", once #fetch found it.
      def debian_version = @debian_version ||= find_version

      def describe = "Debian source package #{package} #{debian_version || version} (#{suite})"

      def facts = {"kind" => kind, "package" => package, "debian_version" => debian_version, "suite" => suite, "dsc" => @dsc}

      # What the source package declares it needs to build on `arch` (Build-Depends and
      # Build-Depends-Arch, with build-essential, which Debian policy leaves implicit), downloading
      # the package first if needed. installed: whether a package, or one providing it, is installed.
      def build_dependencies(arch:, installed:)
        self.class.declared_dependencies(Processes::TextFile.read(@dsc ||= fetch), arch: arch, installed: installed)
      end

      # The same, from the text of a .dsc file.
      def self.declared_dependencies(dsc_text, arch:, installed:)
        relations = %w[Build-Depends Build-Depends-Arch].flat_map { |f| DebianControl.parse(DebianControl.field(dsc_text, f)) }
        (DebianControl::IMPLICIT + DebianControl.packages(relations, arch: arch, profiles: PROFILES, installed: installed)).uniq
      end

      # Downloads the package unless it is in the cache, and unpacks it (patched) into dir.
      def unpack(dir)
        @dsc ||= fetch
        @progress.phase("unpacking", "dpkg-source -x #{File.basename(@dsc)} (applies Debian's patches)")
        @log.run(["dpkg-source", "-x", @dsc, dir])
        dir
      end

      def fetch
        ensure_entry! unless debian_version
        dsc = File.join(@downloads, "#{package}_#{debian_version.sub(/\A\d+:/, "")}.dsc")
        return dsc if File.exist?(dsc)
        @progress.phase("fetching source", "apt-get source --download-only #{package}=#{debian_version} (#{suite})")
        partial = File.join(@downloads, ".partial-#{Process.pid}")
        FileUtils.rm_rf(partial)
        FileUtils.mkdir_p(partial)
        @log.run(["apt-get", *@apt_options, "source", "--download-only", "#{package}=#{debian_version}"], chdir: partial)
        files = Dir.children(partial).sort_by { |f| f.end_with?(".dsc") ? 1 : 0 }
        files.each { |f| File.rename(File.join(partial, f), File.join(@downloads, f)) }
        dsc
      ensure
        FileUtils.rm_rf(partial) if partial
      end

      # The deb822 entry that lets apt fetch the suite's sources.
      def entry_text(mirror)
        <<~TEXT
          # Added by rubyrig so that `apt-get source #{package}` can fetch CRuby's source; safe to remove.
          Types: deb-src
          URIs: #{mirror}
          Suites: #{suite}
          Components: main
          #{"Signed-By: #{KEYRING}" if File.exist?(KEYRING)}
        TEXT
      end

      def entry_path = File.join(@sources_dir, "rubyrig-#{suite}-src.sources")

      private

      def find_version
        out, _err, exit = Processes::Child.capture(["apt-cache", *@apt_options, "showsrc", "--only-source", package], timeout_s: 120)
        return nil unless exit.success?
        versions = out.split(/\n\s*\n/).filter_map do |record|
          fields = record.scan(/^(Package|Version): (\S+)/).to_h
          fields["Version"] if fields["Package"] == package
        end
        versions.select { |v| upstream(v) == version }.max { |a, b| compare(a, b) }
      end

      def upstream(debian_version) = debian_version.sub(/\A\d+:/, "").sub(/-[^-]+\z/, "").sub(/[+~].*\z/, "")

      def compare(a, b)
        return 0 if a == b
        _out, _err, exit = Processes::Child.capture(["dpkg", "--compare-versions", a, "gt", b], timeout_s: 30)
        exit.success? ? 1 : -1
      end

      # Makes apt know the suite's sources: adds an entry (root) and updates its index only.
      def ensure_entry!
        unless suite
          raise BuildError, "Debian ships no source package for Ruby #{minor} in #{SUITES.values.join(", ")}; give --source ruby-#{version}.tar.gz or install ruby-build"
        end
        target = index_targets.find { |t| t[:created_by] == "Sources" && t[:release] == suite }
        if target && downloaded?(target[:filename])
          raise BuildError, "Debian #{suite}'s #{package} is not version #{version} (see `apt-cache showsrc #{package}`); give --source ruby-#{version}.tar.gz or install ruby-build"
        end
        file = target ? target[:entry].sub(/:\d+\z/, "") : entry_path
        unless @root
          raise BuildError, target ? "apt has not downloaded the deb-src index for Debian #{suite}: run `sudo apt-get update`, then build again" : not_root_message
        end
        add_entry unless target
        @progress.phase("apt-get update", "#{file} only")
        @log.run(["apt-get", *@apt_options, "update", "-o", "Dir::Etc::sourcelist=#{file}",
          "-o", "Dir::Etc::sourceparts=-", "-o", "APT::Get::List-Cleanup=0"])
        @debian_version = find_version
        @debian_version || raise(BuildError, "after apt-get update, Debian #{suite} still has no #{package} #{version}; give --source ruby-#{version}.tar.gz")
      end

      def add_entry
        FileUtils.mkdir_p(@sources_dir)
        File.write(entry_path, entry_text(mirror))
        @progress.note("Added a deb-src entry for Debian #{suite} in #{entry_path} (needed for `apt-get source #{package}`)")
      end

      def not_root_message
        "apt has no deb-src entry for Debian #{suite}, which carries #{package} #{version}; as root, write these lines " \
          "to #{entry_path}: #{entry_text(mirror).lines.drop(1).map(&:strip).reject(&:empty?).join(" | ")} " \
          "(one field per line), run `sudo apt-get update`, then build again; or give --source ruby-#{version}.tar.gz"
      end

      def mirror
        debian = index_targets.find { |t| t[:created_by] == "Packages" && t[:origin] == "Debian" && !t[:repo_uri].include?("security") }
        debian ? debian[:repo_uri].chomp("/") : DEFAULT_MIRROR
      end

      def index_targets
        @index_targets ||= begin
          format = "$(CREATED_BY)\t$(RELEASE)\t$(FILENAME)\t$(SOURCESENTRY)\t$(REPO_URI)\t$(ORIGIN)"
          out, _err, exit = Processes::Child.capture(["apt-get", *@apt_options, "indextargets", "--format", format], timeout_s: 60)
          exit.success? ? parse_targets(out) : []
        end
      end

      def parse_targets(out)
        out.lines.map do |line|
          created_by, release, filename, entry, repo_uri, origin = line.chomp.split("\t")
          {created_by: created_by, release: release, filename: filename.to_s, entry: entry.to_s, repo_uri: repo_uri.to_s, origin: origin}
        end
      end

      def downloaded?(filename)
        File.exist?(filename) || !Dir.glob("#{filename.sub(/\.(lz4|gz|xz|zst|bz2)\z/, "")}*").empty?
      end
    end
  end
end
