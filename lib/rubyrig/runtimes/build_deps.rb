# Checks that the programs and C headers a CRuby build from a tarball or ruby-build needs are
# installed, and says which Debian packages provide the missing ones, so that a build fails before it
# starts rather than an hour in. (A build from Debian's source package installs what the package
# declares instead: DebianSource#build_dependencies.)
module Rubyrig
  module Runtimes
    class BuildDeps
      # One thing a build needs: a program on PATH or a header in the include directories.
      Dependency = Struct.new(:package, :program, :header, :why, keyword_init: true)

      COMPILER = Dependency.new(package: "gcc", program: "gcc", why: "C compiler").freeze
      MAKE = Dependency.new(package: "make", program: "make", why: "runs the build").freeze
      LIBRARIES = [
        Dependency.new(package: "libssl-dev", header: "openssl/ssl.h", why: "openssl, needed by rubygems and bundler"),
        Dependency.new(package: "libyaml-dev", header: "yaml.h", why: "psych, needed by rubygems and bundler"),
        Dependency.new(package: "zlib1g-dev", header: "zlib.h", why: "zlib, needed to install gems"),
        Dependency.new(package: "libffi-dev", header: "ffi.h", why: "fiddle")
      ].map(&:freeze).freeze
      READLINE = Dependency.new(package: "libreadline-dev", header: "readline/readline.h", why: "readline before Ruby 3.3").freeze
      JEMALLOC = Dependency.new(package: "libjemalloc-dev", header: "jemalloc/jemalloc.h", why: "--jemalloc").freeze
      XZ = Dependency.new(package: "xz-utils", program: "xz", why: "unpacks .tar.xz sources").freeze
      AUTOCONF = Dependency.new(package: "autoconf", program: "autoconf", why: "the source has no configure script").freeze
      BISON = Dependency.new(package: "bison", program: "bison", why: "the source has no generated parser").freeze

      def initialize(path:, include_dirs: nil, root: Process.euid.zero?)
        @path = path
        @include_dirs = include_dirs || default_include_dirs
        @root = root
      end

      # What a build of `version` from a tarball (path given) or ruby-build needs.
      def required(version:, jemalloc:, tarball: nil)
        deps = [COMPILER, MAKE, *LIBRARIES]
        deps << READLINE if Gem::Version.new(version.sub(/-.*/, "")) < Gem::Version.new("3.3")
        deps << JEMALLOC if jemalloc
        deps << XZ if tarball.to_s.end_with?(".xz")
        deps
      end

      def missing(deps) = deps.reject { |dep| present?(dep) }

      # Raises one line listing the missing dependencies and the apt-get command that installs them.
      def check!(deps)
        absent = missing(deps)
        return if absent.empty?
        raise BuildError, message(absent)
      end

      def message(absent)
        listed = absent.map { |d| "#{d.package} (#{d.program || d.header}: #{d.why})" }.join(", ")
        "missing build dependencies: #{listed}; install them with: #{install_command(absent)}"
      end

      def install_command(absent)
        "#{"sudo " unless @root}apt-get install -y #{absent.map(&:package).uniq.join(" ")}"
      end

      def present?(dep)
        return !Processes::Which.find(dep.program, path: @path).nil? if dep.program
        @include_dirs.any? { |dir| File.file?(File.join(dir, dep.header)) }
      end

      private

      def default_include_dirs
        ["/usr/local/include", "/usr/include", *Dir.glob("/usr/include/*-linux-gnu*")]
      end
    end
  end
end
