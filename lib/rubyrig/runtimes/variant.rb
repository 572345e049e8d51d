# The contract of a runtime variant (the "+name" or "+name=value" of a spec), with its defaults: a
# variant is a module that extends this one, lives in runtimes/variants/<name>.rb and has one line in
# the registry (Runtimes::Variants). Launch asks every variant what it adds, and the probe's facts are
# checked against what each one expects.
module Rubyrig
  module Runtimes
    module Variant
      # The name written after "+", e.g. "yjit-mem" (`key`, as Module#name is the constant's).
      def key = raise(NotImplementedError, "#{self} must define key")

      # How `compare --help` writes it, e.g. "+yjit-mem=MiB".
      def help = "+#{key}"

      # What its value is ("a size in MiB, e.g. +yjit-mem=32"), or nil when it takes none.
      def value = nil

      # Whether a value given for it is one it can take (only asked when `value` says it takes one).
      def valid?(text) = text.to_s.match?(/\A[1-9]\d*\z/)

      # The environment variables it owns: an inherited value would change the runtime unasked, so
      # every launch clears them before any variant sets them.
      def env_names = []

      # Adds its flags, environment, expectations (what the probe must confirm), warnings or blocker to
      # a Launch::Parts, for a runtime that asks for it with `value` (true when it takes none).
      def apply(_parts, _value) = nil

      # The expectations it sets for a runtime that does not ask for it (e.g. YJIT must then be off).
      def absent(_parts) = nil

      # A sentence when the facts a probe wrote contradict what the launch expects, else nil.
      def contradiction(_expect, _facts) = nil

      # A warning when none of a batch's probes could confirm it (probes: the facts of each), else nil.
      def unverified(_expect, _probes) = nil
    end
  end
end
