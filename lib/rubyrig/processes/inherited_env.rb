# Which of rubyrig's own environment variables the processes of a batch inherit: an allow-list of what
# any program needs to run as the user (PATH, HOME, USER, the locale, the time zone, the temporary
# folder, the library path and the JVM's home), plus the names an experiment passes on with
# `inherit_env:` or --inherit-env. Everything else (tokens, passwords, cloud credentials, CI secrets,
# and settings such as JAVA_TOOL_OPTIONS that would change the measured runtime) stays with rubyrig;
# a process gets it only when the experiment gives it explicitly.
module Rubyrig
  module Processes
    module InheritedEnv
      PASSED = %w[PATH HOME USER LOGNAME LANG LANGUAGE TZ TMPDIR LD_LIBRARY_PATH JAVA_HOME].freeze
      PASSED_PREFIXES = %w[LC_].freeze
      # A name, or a prefix followed by "*" (AWS_*).
      PATTERN = /\A[A-Za-z_][A-Za-z0-9_]*\*?\z/

      module_function

      # Whether a variable of rubyrig's environment reaches the processes; `inherit`: the experiment's names.
      def passed?(name, inherit = [])
        PASSED.include?(name) || PASSED_PREFIXES.any? { |prefix| name.start_with?(prefix) } ||
          inherit.any? { |pattern| pattern.end_with?("*") ? name.start_with?(pattern.chomp("*")) : name == pattern }
      end

      # nil for every variable of `from` (by default the environment a spawned process would inherit)
      # that is not passed on. Under a process's own variables, it leaves the process exactly those,
      # the allowed ones and the inherited names.
      def withheld(inherit = [], from: ENV)
        from.keys.reject { |name| passed?(name, inherit) }.to_h { |name| [name, nil] }
      end
    end
  end
end
