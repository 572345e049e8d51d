# What one installed Ruby interpreter is: where it lives, its version and what it supports.
module Rubyrig
  module Runtimes
    Interpreter = Struct.new(
      :name, :path, :source, :engine, :version, :ruby_version, :description, :platform,
      :yjit, :jemalloc_linked, :configure_args, :fingerprint,
      keyword_init: true
    ) do
      def cruby? = engine == "ruby"

      def jruby? = engine == "jruby"

      # Whether it schedules M:N threads when asked (Variants::Mn).
      def mn? = Variants::Mn.supported?(self)

      def version_at_least?(wanted)
        Gem::Version.new(version) >= Gem::Version.new(wanted)
      rescue ArgumentError # an engine version string Gem::Version cannot read, such as a dev suffix
        false
      end

      def bin_dir = File.dirname(path)

      def to_h = super.merge(mn: mn?)
    end
  end
end
