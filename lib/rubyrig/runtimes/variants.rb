# The registry of runtime variants: one line per variant, each a module in runtimes/variants/ that
# follows Runtimes::Variant. Spec parsing, launches and `compare --help` find them here.
module Rubyrig
  module Runtimes
    module Variants
      # name => the constant that holds it, in the order launches apply them.
      REGISTRY = {
        "yjit" => :Yjit,
        "yjit-mem" => :YjitMem,
        "yjit-stats" => :YjitStats,
        "jemalloc" => :Jemalloc,
        "mn" => :Mn
      }.freeze

      @added = {}

      module_function

      def names = REGISTRY.keys + @added.keys

      def all = names.map { |name| fetch(name) }

      # The variant called `name`, or nil.
      def find(name)
        return const_get(REGISTRY[name]) if REGISTRY.key?(name)
        @added[name]
      end

      def fetch(name) = find(name) || raise(KeyError, "no runtime variant +#{name}")

      # Adds a variant that is not in REGISTRY (a test's own) until `remove`.
      def add(variant) = @added[variant.key] = variant

      def remove(variant) = @added.delete(variant.key)

      # "+yjit, +yjit-mem=MiB, ...": every variant as `compare --help` lists them.
      def help = all.map(&:help).join(", ")
    end
  end
end
