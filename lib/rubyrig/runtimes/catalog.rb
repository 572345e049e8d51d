# Resolves the BASE of a runtime spec (system, a version prefix, jruby, a name or a path) to one
# described Interpreter, and lists everything found for `rubyrig runtimes`.
module Rubyrig
  module Runtimes
    class Catalog
      VERSION_PATTERN = /\A(?:ruby-)?(?<version>\d+(?:\.\d+)*)\z/

      def initialize(discovery:, fingerprint:)
        @discovery = discovery
        @fingerprint = fingerprint
        @interpreters = nil
      end

      def interpreters
        @interpreters ||= @discovery.candidates.filter_map do |c|
          @fingerprint.describe(c.path, name: c.name, source: c.source)
        end
      end

      def resolve(base)
        found = if base.include?("/")
          by_path(base)
        else
          interpreters.find { |i| i.name == base } || by_engine(base) || by_version(base)
        end
        found || raise(RuntimeSpecError, not_found_message(base))
      end

      private

      def by_path(base)
        unless Processes::Which.executable?(base)
          raise RuntimeSpecError, "runtime path #{base} is not an executable file: give the path of a ruby binary"
        end
        @fingerprint.describe(base, name: base, source: "path") ||
          raise(RuntimeSpecError, "#{base} did not run as a Ruby interpreter: check that it is one")
      end

      def by_engine(base)
        return nil unless base == "jruby"
        interpreters.find(&:jruby?)
      end

      def by_version(base)
        m = VERSION_PATTERN.match(base)
        return nil unless m
        wanted = m[:version]
        matches = interpreters.select do |i|
          i.cruby? && (i.version == wanted || i.version.start_with?("#{wanted}."))
        end
        # A plain build named after its version beats a variant build of it (3.3.8 over 3.3.8-jemalloc).
        matches.max_by { |i| [Gem::Version.new(i.version), (i.source == "rubyrig") ? 1 : 0, (i.name == i.version) ? 1 : 0] }
      end

      def not_found_message(base)
        known = interpreters.map { |i| "#{i.name} (#{i.engine} #{i.version})" }
        hint = VERSION_PATTERN.match?(base) ? "build it with `rubyrig build #{base}`" : "give a version, jruby, system or a path"
        "no interpreter matches runtime '#{base}': #{hint}; found #{known.empty? ? "none" : known.join(", ")}"
      end
    end
  end
end
