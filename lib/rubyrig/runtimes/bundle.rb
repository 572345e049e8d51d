# One runtime's own gem set for one Gemfile: installed by that runtime's bundler, with its own lockfile
# in <cache>/bundles/<interpreter fingerprint>/<gemfile digest>/ (the Gemfile-per-Ruby pattern) and its
# gems where checkouts of the same Gemfile share them (vendor_dir), reused while the Gemfile (and its
# Gemfile.lock) is unchanged. When the
# Gemfile has a Gemfile.lock beside it (an app's own), that lockfile is installed as it is (frozen)
# where it resolves on the runtime; where it does not (another platform, a gem the runtime cannot
# run), bundler resolves again from it, and the gem set records why and both lockfiles' digests. Gems
# the workload's kind needs (puma for an http app) that the app's bundle lacks are added to the
# generated Gemfile and resolved from the app's lockfile (added_gems).
require "digest"
require "fileutils"
require "json"

module Rubyrig
  module Runtimes
    class Bundle
      MARKER = "installed.json"
      AS_IS = "as-is"
      RE_RESOLVED = "re-resolved"
      KEPT = "the app's locked versions are kept"
      # Gems whose version a report names per runtime.
      NOTABLE_GEMS = %w[sidekiq rails railties puma rack activerecord sqlite3 redis-client].freeze
      # Bundler's CLI started from the interpreter itself, so that no `bundle` launcher on PATH (or a
      # broken one, like the one in Debian's jruby package) can run another Ruby's bundler.
      BUNDLER_CLI = 'require "bundler"; require "bundler/friendly_errors"; require "bundler/cli"; ' \
        "Bundler.with_friendly_errors { Bundler::CLI.start(ARGV, debug: true) }"

      attr_reader :interpreter, :gemfile

      # required_gems: the gems the workload's kind runs with (Kinds::Contract#required_gems).
      def initialize(cache_dir:, interpreter:, gemfile:, required_gems: [], timeout_s: 1800)
        @cache_dir = cache_dir
        @interpreter = interpreter
        @gemfile = File.expand_path(gemfile)
        @required_gems = required_gems
        @timeout_s = timeout_s
        unless File.file?(@gemfile)
          raise BuildError, "Gemfile #{gemfile} does not exist; fix the workload's gemfile: path"
        end
      end

      # The added gems are part of the digest, so that the gem set with them is another one.
      def dir
        added = added_gems.empty? ? "" : "\nadded: #{added_gems.join(",")}"
        digest = Digest::SHA256.hexdigest("#{@gemfile}\n#{Processes::TextFile.read(@gemfile)}#{added}")[0, 12]
        File.join(@cache_dir, "bundles", @interpreter.fingerprint, digest)
      end

      # Where the gems are installed (BUNDLE_PATH): shared by every gem set of this runtime whose
      # Gemfile, lockfile and added gems read the same, wherever the app is checked out, so that a
      # second checkout compiles no native gem again (bundler locks it while it installs). Its Gemfile
      # and lockfile stay in dir, pointing at the app's own Gemfile. An app whose Gemfile reaches into
      # its folder (path:, gemspec, a PATH source) keeps its installed gems to itself; so does a gem set
      # installed before they were shared (its own vendor/).
      def vendor_dir
        own = File.join(dir, "vendor")
        return own if File.directory?(own) || local_sources?
        content = [Processes::TextFile.read(@gemfile), source_lockfile ? Processes::TextFile.read(source_lockfile) : "", added_gems.join(",")]
        File.join(@cache_dir, "bundles", @interpreter.fingerprint, "gems", Digest::SHA256.hexdigest(content.join("\0"))[0, 12])
      end

      # The required gems the app's bundle lacks: not locked in its Gemfile.lock, or (without one) not
      # named by a `gem` line of its Gemfile.
      def added_gems
        @added_gems ||= begin
          text = Processes::TextFile.read(source_lockfile || @gemfile)
          pattern = source_lockfile ? ->(name) { /^    #{Regexp.escape(name)} \(/ } : ->(name) { /^\s*gem\s+["']#{Regexp.escape(name)}["']/ }
          @required_gems.reject { |name| text.match?(pattern.call(name)) }.freeze
        end
      end

      # Why the gem set is not the app's lockfile as it is when gems were added.
      def added_reason = "rubyrig added #{added_gems.join(", ")}, which the app's bundle lacks"

      # Whether the gem set is the app's lockfile with the added gems, every locked version kept.
      def added_only? = resolution_reason == "#{added_reason}; #{KEPT}"

      def lockfile = File.join(dir, "Gemfile.lock")

      def lockfile_sha256 = File.exist?(lockfile) ? Digest::SHA256.file(lockfile).hexdigest : nil

      # The Gemfile.lock beside the Gemfile (an app's own), or nil.
      def source_lockfile
        path = "#{@gemfile}.lock"
        File.file?(path) ? path : nil
      end

      def source_lockfile_sha256 = source_lockfile && Digest::SHA256.file(source_lockfile).hexdigest

      # How the gem set relates to the source lockfile: as-is, re-resolved (with the reason), or nil
      # when there is none; from the marker of the install.
      def resolution = marker["resolution"]

      def resolution_reason = marker["resolution_reason"]

      # name => version of the notable gems in the runtime's lockfile, e.g. {"sidekiq" => "7.3.10"}; a
      # gem locked for several platforms ("sqlite3 (2.10.2-x86_64-linux-gnu)") counts once, without them.
      def gems
        return {} unless File.exist?(lockfile)
        found = {}
        Processes::TextFile.read(lockfile).scan(/^    ([a-z0-9_-]+) \(([^)\s]+)[^)]*\)$/) { |name, version| found[name] ||= version.split("-").first }
        found.slice(*NOTABLE_GEMS)
      end

      # What run.json and the report say about this gem set.
      def to_h
        {"lockfile" => lockfile, "lockfile_sha256" => lockfile_sha256, "source_lockfile" => source_lockfile,
         "source_lockfile_sha256" => source_lockfile_sha256, "resolution" => resolution,
         "resolution_reason" => resolution_reason, "added_gems" => (added_gems unless added_gems.empty?), "added_only" => (true if added_only?), "bundle_path" => vendor_dir, "gems" => gems}.compact
      end

      def log_path = File.join(dir, "install.log")

      # Installed when its lockfile and marker match the app's and its gems are where they were put (a
      # shared gems folder removed, or never filled, means installing again).
      def installed?
        File.exist?(lockfile) && marker["gemfile"] == Processes::TextFile.read(@gemfile) &&
          marker["source_lockfile_sha256"] == source_lockfile_sha256 && File.directory?(vendor_dir)
      end

      # Installs the gem set unless it is already there; returns self.
      def install!
        return self if installed?
        FileUtils.mkdir_p(dir)
        File.write(File.join(dir, "Gemfile"), "# Generated by rubyrig for #{@interpreter.name}\neval_gemfile #{@gemfile.dump}\n" +
          added_gems.map { |name| "gem #{name.dump}\n" }.join)
        FileUtils.rm_f(lockfile)
        facts = if source_lockfile
          install_from_lockfile
        else
          bundle_install({})
          {}
        end
        record = {"gemfile" => Processes::TextFile.read(@gemfile), "lockfile_sha256" => lockfile_sha256,
                  "source_lockfile_sha256" => source_lockfile_sha256, "added_gems" => added_gems, "bundler_version" => bundler_version}
        File.write(File.join(dir, MARKER), JSON.generate(record.merge(facts)))
        @marker = nil
        self
      rescue Processes::Child::Timeout
        raise BuildError, "installing #{File.basename(@gemfile)} for #{@interpreter.name} took longer than #{@timeout_s} s; see #{log_path}"
      end

      # The environment a measured process needs to use this gem set. BUNDLER_VERSION keeps the
      # runtime's own bundler: an app's lockfile written by a newer one would otherwise make bundler
      # install that version and restart itself with it.
      def env
        {
          "BUNDLE_GEMFILE" => File.join(dir, "Gemfile"),
          "BUNDLE_PATH" => vendor_dir,
          "BUNDLE_APP_CONFIG" => File.join(dir, ".bundle"),
          "BUNDLER_VERSION" => bundler_version
        }
      end

      # The version of the bundler that comes with the interpreter (recorded when the gem set is installed).
      def bundler_version
        @bundler_version ||= marker["bundler_version"] || begin
          out, _err, exit = Processes::Child.capture([@interpreter.path, "-e", 'require "bundler"; print Bundler::VERSION'],
            env: neutral_env, timeout_s: 120)
          raise BuildError, "runtime #{@interpreter.name} has no bundler (`require \"bundler\"` failed); install it with that runtime's gem" unless exit.success?
          out.strip
        end
      end

      private

      def marker
        @marker ||= File.exist?(File.join(dir, MARKER)) ? Processes::TextFile.json(File.join(dir, MARKER)) : {}
      rescue JSON::ParserError # a damaged marker means reinstall
        @marker = {}
      end

      # The app's lockfile as it is (frozen: bundler may not change it), unless gems are added; else the
      # runtime's own resolution starting from it (bundler keeps the locked versions it can, e.g. adding
      # a platform or the added gems); else a resolution without it (a locked gem the runtime cannot
      # run). Returns the facts for the marker.
      def install_from_lockfile
        FileUtils.cp(source_lockfile, lockfile)
        reason = added_gems.empty? ? frozen_install : added_reason
        return {"resolution" => AS_IS} unless reason
        resolve_from_lockfile(reason)
      end

      # Installs the app's lockfile frozen; nil when that worked, else bundler's complaint (and the
      # lockfile copied back for the resolution that follows).
      def frozen_install
        output = bundle_install({"BUNDLE_FROZEN" => "true"}, raise_on_failure: false)
        return nil unless output
        File.write("#{log_path}.frozen", output)
        FileUtils.cp(source_lockfile, lockfile)
        detail(output)
      end

      # Bundler's resolution starting from the app's lockfile, else without it; reason: why it is needed.
      def resolve_from_lockfile(reason)
        unless bundle_install({}, raise_on_failure: false)
          return {"resolution" => RE_RESOLVED, "resolution_reason" => (reason == added_reason) ? "#{reason}; #{versions_kept}" : reason}
        end
        File.write("#{log_path}.from-lockfile", Processes::TextFile.read(log_path))
        FileUtils.rm_f(lockfile)
        bundle_install({})
        {"resolution" => RE_RESOLVED, "resolution_reason" => "#{reason}; resolved without its lockfile"}
      end

      # Whether bundler, adding gems, kept every version the app's lockfile locks, else which it changed.
      def versions_kept
        locked = ->(path) { Processes::TextFile.read(path).scan(/^    \S+ \([^)]*\)$/).map(&:strip) }
        changed = locked.call(source_lockfile) - locked.call(lockfile)
        changed.empty? ? KEPT : "bundler changed the app's #{changed.join(", ")}"
      end

      # Runs `bundle install`; nil when it succeeded, else its output (or BuildError when asked to raise).
      def bundle_install(extra_env, raise_on_failure: true)
        out, err, exit = Processes::Child.capture(
          [@interpreter.path, "-e", BUNDLER_CLI, "--", "install", "--jobs", "2", "--retry", "2"],
          env: neutral_env.merge(env, "PATH" => path_with_interpreter).merge(extra_env), timeout_s: @timeout_s
        )
        File.write(log_path, out + err)
        return nil if exit.success?
        raise BuildError, failure_message(out + err) if raise_on_failure
        out + err
      end

      # Whether the Gemfile or its lockfile names gems by a path relative to the app.
      def local_sources?
        Processes::TextFile.read(@gemfile).match?(/^\s*(gemspec|path)\b|\bpath:|:path\s*=>/) ||
          (source_lockfile && Processes::TextFile.read(source_lockfile).match?(/^PATH$/))
      end

      # A `bundle exec` around rubyrig leaves its Ruby's bundler on RUBYLIB, which another runtime would load.
      def neutral_env = Launch::NEUTRALIZED_ENV.to_h { |name| [name, nil] }

      def path_with_interpreter
        [@interpreter.bin_dir, ENV.fetch("PATH", "")].join(File::PATH_SEPARATOR)
      end

      # Where a gem rubyrig adds (or an unnamed one, as when its source is out of reach) did not
      # install, the fix is the app's own: adding it to its Gemfile.
      def failure_message(output)
        gem = output[/error occurred while installing (\S+ \([^)]*\))/, 1] ||
          output[/Could not find gem '([^']+)'/, 1] ||
          output[/Could not find (\S+) in /, 1]
        if !added_gems.empty? && (gem.nil? || added_gems.include?(gem[/\A[^\s(]+/]))
          return "#{@gemfile} lacks #{added_gems.join(", ")}, which rubyrig could not add to its gem set for #{@interpreter.name} " \
            "(#{detail(output)}): add #{added_gems.map { |name| "`gem #{name.dump}`" }.join(", ")} to it and run `bundle install` there; see #{log_path}"
        end
        what = gem ? "the gem #{gem}" : "the gem set"
        "runtime #{@interpreter.name} (#{@interpreter.version}) could not install #{what} from #{@gemfile}: #{detail(output)}; see #{log_path}"
      end

      # Bundler's closing words without its progress lines, on one line (it wraps long messages).
      def detail(output)
        text = output.lines.map(&:strip).reject { |l| l.empty? || l.match?(/\A(Fetching|Resolving|Using|Installing|Bundle complete)\b/) }.join(" ")
        text = text.chomp(".")
        (text.size > 240) ? "...#{text[-240..].sub(/\A\S*\s/, "")}" : text
      end
    end
  end
end
