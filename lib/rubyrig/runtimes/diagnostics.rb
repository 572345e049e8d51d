# The diagnostics gems of one runtime (gvltools, gvl-tracing, stackprof, vernier), installed with that
# runtime's own `gem` into <cache>/diagnostics/<interpreter fingerprint>/ and loaded by
# probe/diagnostics.rb from there, apart from any Bundler setup of the workload.
require "fileutils"
require "json"

module Rubyrig
  module Runtimes
    class Diagnostics
      MARKER = "installed.json"

      attr_reader :interpreter, :problem

      def initialize(cache_dir:, interpreter:, timeout_s: 900)
        @cache_dir = cache_dir
        @interpreter = interpreter
        @timeout_s = timeout_s
        @problem = nil
      end

      # Which gems this runtime can use: the GVL APIs exist from CRuby 3.2, vernier needs 3.2.1.
      def gems
        return [] unless @interpreter.cruby?
        list = ["stackprof"]
        list += %w[gvltools gvl-tracing] if @interpreter.version_at_least?("3.2")
        list << "vernier" if @interpreter.version_at_least?("3.2.1")
        list
      end

      def gvl? = installed_gems.include?("gvltools")

      def supports?(gem) = installed_gems.include?(gem)

      def dir = File.join(@cache_dir, "diagnostics", @interpreter.fingerprint)

      def installed_gems
        marker = File.join(dir, MARKER)
        File.exist?(marker) ? TextFile.json(marker).fetch("gems", []) : []
      rescue JSON::ParserError # a damaged marker means "install again"
        []
      end

      def installed? = (gems - installed_gems).empty?

      # Installs what is missing; on failure returns false and keeps the reason in #problem, since
      # a run can go on without diagnostics (they are reported as n/a).
      def install!
        return true if installed?
        FileUtils.mkdir_p(dir)
        out, err, exit = Child.capture(
          [@interpreter.path, "-S", "gem", "install", "--install-dir", dir, "--no-document", *gems],
          env: {"PATH" => [@interpreter.bin_dir, ENV.fetch("PATH", "")].join(File::PATH_SEPARATOR),
                "RUBYOPT" => nil, "GEM_HOME" => nil, "GEM_PATH" => nil, "BUNDLE_GEMFILE" => nil},
          timeout_s: @timeout_s
        )
        File.write(File.join(dir, "install.log"), out + err)
        unless exit.success?
          @problem = "installing #{gems.join(", ")} for #{@interpreter.name} failed (#{(out + err).lines.last.to_s.strip}); see #{dir}/install.log"
          return false
        end
        File.write(File.join(dir, MARKER), JSON.generate("gems" => gems))
        true
      rescue Child::Timeout
        @problem = "installing #{gems.join(", ")} for #{@interpreter.name} took longer than #{@timeout_s} s"
        false
      end
    end
  end
end
