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

      # The gem each diagnostic needs.
      GEM_FOR = {"gvl" => "gvltools", "trace" => "gvl-tracing", "stackprof" => "stackprof", "vernier" => "vernier"}.freeze

      # wanted: the gems the run needs (Diagnostics.wanted), of which this runtime installs those it can use.
      def initialize(cache_dir:, interpreter:, wanted: GEM_FOR.values, timeout_s: 900)
        @cache_dir = cache_dir
        @interpreter = interpreter
        @wanted = wanted
        @timeout_s = timeout_s
        @problem = nil
      end

      # The gems a run needs: gvltools for GVL metrics, gvl-tracing for --trace gvl, the --profile profiler.
      def self.wanted(gvl:, trace:, profile:)
        [(GEM_FOR["gvl"] if gvl), (GEM_FOR["trace"] if trace), GEM_FOR[profile]].compact
      end

      # Which gems this runtime can use: the GVL APIs exist from CRuby 3.2, vernier needs 3.2.1.
      def usable
        return [] unless @interpreter.cruby?
        list = ["stackprof"]
        list += %w[gvltools gvl-tracing] if @interpreter.version_at_least?("3.2")
        list << "vernier" if @interpreter.version_at_least?("3.2.1")
        list
      end

      # The wanted gems this runtime can use.
      def gems = usable & @wanted

      def gvl? = installed_gems.include?("gvltools")

      def supports?(gem) = installed_gems.include?(gem)

      def dir = File.join(@cache_dir, "diagnostics", @interpreter.fingerprint)

      def installed_gems
        marker = File.join(dir, MARKER)
        File.exist?(marker) ? Processes::TextFile.json(marker).fetch("gems", []) : []
      rescue JSON::ParserError # a damaged marker means "install again"
        []
      end

      def installed? = (gems - installed_gems).empty?

      # Installs what is missing; on failure returns false and keeps the reason in #problem, since
      # a run can go on without diagnostics (they are reported as n/a).
      def install!
        return true if installed?
        FileUtils.mkdir_p(dir)
        missing = gems - installed_gems
        out, err, exit = Processes::Child.capture(
          [@interpreter.path, "-S", "gem", "install", "--install-dir", dir, "--no-document", *missing],
          env: {"PATH" => [@interpreter.bin_dir, ENV.fetch("PATH", "")].join(File::PATH_SEPARATOR),
                "RUBYOPT" => nil, "GEM_HOME" => nil, "GEM_PATH" => nil, "BUNDLE_GEMFILE" => nil},
          timeout_s: @timeout_s
        )
        File.write(File.join(dir, "install.log"), out + err)
        unless exit.success?
          @problem = "installing #{missing.join(", ")} for #{@interpreter.name} failed (#{(out + err).lines.last.to_s.strip}); see #{dir}/install.log"
          return false
        end
        File.write(File.join(dir, MARKER), JSON.generate("gems" => (installed_gems + missing).uniq))
        true
      rescue Processes::Child::Timeout
        @problem = "installing #{missing.join(", ")} for #{@interpreter.name} took longer than #{@timeout_s} s"
        false
      end
    end
  end
end
