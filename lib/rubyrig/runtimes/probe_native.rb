# Builds the probe's native fast path (probe/native/rubyrig_probe.c) once per CRuby, with that
# interpreter's own mkmf and headers, cached by the interpreter's fingerprint and the source's digest,
# so that a measured process loads a small shared object instead of the Ruby probe (bench/probe-cost).
# JRuby, and a CRuby whose build fails (no compiler, no headers), get nil: the Ruby probe then loads.
require "digest"
require "fileutils"
require "tmpdir"

module Rubyrig
  module Runtimes
    class ProbeNative
      SOURCE_DIR = File.expand_path("../probe/native", __dir__)
      SOURCES = %w[rubyrig_probe.c extconf.rb].freeze
      BUILD_TIMEOUT_S = 120

      def initialize(cache_dir:)
        @dir = File.join(cache_dir, "probe-native")
      end

      # The shared object for interpreter, built now if it is not cached; nil when it cannot be.
      def path_for(interpreter)
        return nil unless interpreter.cruby? && interpreter.fingerprint
        digest = Digest::SHA256.hexdigest(SOURCES.map { |name| File.binread(File.join(SOURCE_DIR, name)) }.join("\0"))[0, 16]
        # Ruby finds the init function by the file's name, so each build has a directory of its own.
        file = File.join(@dir, "#{interpreter.fingerprint}-#{digest}", "rubyrig_probe.so")
        return file if File.file?(file)
        build(interpreter, file)
      end

      private

      def build(interpreter, file)
        FileUtils.mkdir_p(File.dirname(file))
        Dir.mktmpdir("rubyrig-probe-native") do |work|
          SOURCES.each { |name| FileUtils.cp(File.join(SOURCE_DIR, name), work) }
          return nil unless run([interpreter.path, "extconf.rb"], work) && run(["make"], work)
          built = File.join(work, "rubyrig_probe.so")
          return nil unless File.file?(built)
          tmp = "#{file}.#{Process.pid}.tmp"
          FileUtils.cp(built, tmp)
          File.rename(tmp, file)
          file
        end
      end

      def run(argv, dir)
        _out, _err, exit = Processes::Child.capture(argv, chdir: dir, env: {"RUBYOPT" => nil, "MAKEFLAGS" => nil}, timeout_s: BUILD_TIMEOUT_S)
        exit.success?
      rescue Processes::Child::Timeout, ToolMissing # a hung build or no make: the Ruby probe instead
        false
      end
    end
  end
end
