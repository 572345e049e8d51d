# Reads the package relations a Debian source package declares (Build-Depends in its .dsc) and
# decides which packages a build on this architecture, with these build profiles, must install:
# architecture and profile restrictions are applied, and of alternatives the first is taken unless
# another is already installed, as Debian's build daemons do. Pure: no apt, no dpkg.
module Rubyrig
  module Runtimes
    module DebianControl
      # One alternative of a relation: a package name with its optional version, architectures and
      # build profiles, as written in the field.
      Alternative = Struct.new(:name, :version, :architectures, :profiles, keyword_init: true)

      # Debian policy 4.2: build-essential is needed by every build and never listed.
      IMPLICIT = %w[build-essential].freeze

      module_function

      # The value of a field in a deb822 paragraph (continuation lines joined), or nil.
      def field(text, name)
        value = nil
        text.each_line do |line|
          if value && line.match?(/\A[ \t]/)
            value << " " << line.strip
          elsif value
            break
          elsif (match = line.chomp.match(/\A#{Regexp.escape(name)}:(.*)\z/i))
            value = +match[1].strip
          end
        end
        value
      end

      # Relations of a field value: an array of arrays of Alternative.
      def parse(value)
        value.to_s.split(",").map(&:strip).reject(&:empty?).map do |relation|
          relation.split("|").map { |alt| alternative(alt.strip) }
        end
      end

      # The packages to install for `relations` on `arch` with the active build `profiles`.
      # installed: a predicate saying whether a package (or something providing it) is installed.
      def packages(relations, arch:, profiles:, installed: ->(_name) { false })
        relations.filter_map do |alternatives|
          usable = alternatives.select { |alt| arch_matches?(alt.architectures, arch) && profiles_match?(alt.profiles, profiles) }
          next if usable.empty?
          (usable.find { |alt| installed.call(alt.name) } || usable.first).name
        end.uniq
      end

      def alternative(text)
        name = text[/\A[a-z0-9][a-z0-9.+-]*/] or raise BuildError, "cannot read the package relation '#{text}' in the source package"
        Alternative.new(
          name: name,
          version: text[/\(([^)]*)\)/, 1]&.strip,
          architectures: text[/\[([^\]]*)\]/, 1]&.split,
          profiles: text.scan(/<([^>]*)>/).map { |(group)| group.split }
        ).freeze
      end

      # Policy 7.1: either every listed architecture is negated (match unless one matches) or none is.
      def arch_matches?(list, arch)
        return true if list.nil? || list.empty?
        negated = list.all? { |a| a.start_with?("!") }
        hit = list.any? { |a| wildcard_matches?(a.delete_prefix("!"), arch) }
        negated ? !hit : hit
      end

      # An architecture wildcard such as linux-any or any-amd64 against a concrete Debian architecture.
      def wildcard_matches?(pattern, arch)
        return true if pattern == "any" || pattern == arch
        os, cpu = split_arch(arch)
        case pattern
        when /\A(.+)-any\z/ then Regexp.last_match(1) == os
        when /\Aany-(.+)\z/ then Regexp.last_match(1) == cpu
        else false
        end
      end

      # Debian architecture names are CPU names on Linux and OS-CPU elsewhere (kfreebsd-amd64, hurd-i386).
      def split_arch(arch)
        os, cpu = arch.split("-", 2)
        cpu ? [os, cpu] : ["linux", arch]
      end

      # Build profiles: the groups are alternatives (any may hold), the terms within one all must hold.
      def profiles_match?(groups, active)
        return true if groups.empty?
        groups.any? do |terms|
          terms.all? { |term| term.start_with?("!") ? !active.include?(term.delete_prefix("!")) : active.include?(term) }
        end
      end
    end
  end
end
