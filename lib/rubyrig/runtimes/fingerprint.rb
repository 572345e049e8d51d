# Describes an interpreter by running it once with probe/fingerprint.rb; caches the answer on disk,
# keyed by the executable's real path, size and mtime, so listing runtimes stays fast (JRuby boots slowly).
require "json"
require "digest"
require "fileutils"

module Rubyrig
  module Runtimes
    class Fingerprint
      SCRIPT = File.expand_path("../probe/fingerprint.rb", __dir__)

      def initialize(cache_dir:, timeout_s: 120)
        @cache_file = File.join(cache_dir, "interpreters.json")
        @timeout_s = timeout_s
        @cache = nil
      end

      # An Interpreter for the executable at path, or nil when it does not run as a Ruby.
      def describe(path, name:, source:)
        real = File.realpath(path)
        stamp = stamp(real)
        facts = cache[real] if cache.dig(real, "stamp") == stamp
        facts ||= run(real)&.merge("stamp" => stamp)
        return nil unless facts
        remember(real, facts)
        build(path, real, name, source, facts)
      rescue Errno::ENOENT # a dangling symlink among the candidates
        nil
      end

      private

      def build(path, real, name, source, facts)
        Interpreter.new(
          name: name, path: path, source: source,
          engine: facts["engine"], version: facts["engine_version"], ruby_version: facts["ruby_version"],
          description: facts["description"], platform: facts["platform"],
          yjit: facts["yjit"] == "true", jemalloc_linked: facts["jemalloc_linked"] == "true",
          configure_args: facts["configure_args"],
          fingerprint: Digest::SHA256.hexdigest([real, facts["description"], facts["configure_args"]].join("\n"))[0, 16]
        ).freeze
      end

      def run(real)
        out, _err, exit = Processes::Child.capture([real, SCRIPT], env: {"RUBYOPT" => nil}, timeout_s: @timeout_s)
        return nil unless exit.success?
        facts = out.lines.to_h { |line| line.chomp.split("\t", 2) }
        facts["engine"] ? facts : nil
      rescue Processes::Child::Timeout, ToolMissing # not a working interpreter: leave it out of the list
        nil
      end

      def stamp(real)
        st = File.stat(real)
        "#{st.size}:#{st.mtime.to_f}:#{VERSION}"
      end

      def cache
        @cache ||= File.exist?(@cache_file) ? Processes::TextFile.json(@cache_file) : {}
      rescue JSON::ParserError # a damaged cache is rebuilt, never trusted
        @cache = {}
      end

      def remember(real, facts)
        return if cache[real] == facts
        cache[real] = facts
        FileUtils.mkdir_p(File.dirname(@cache_file))
        tmp = "#{@cache_file}.#{Process.pid}.tmp"
        File.write(tmp, JSON.pretty_generate(cache))
        File.rename(tmp, @cache_file)
      end
    end
  end
end
