# The registry of workload kinds: one line per kind, each a folder in kinds/ whose kind.rb follows
# Kinds::Contract. The experiment loader, the CLI, the run and the metric catalogue find kinds here.
module Rubyrig
  module Kinds
    # kind => the constant of its Contract module, in the order `compare -- ARGS` tries their shortcuts.
    REGISTRY = {
      "script" => "Script::Kind",
      "http" => "Http::Kind",
      "jobs" => "Jobs::Kind",
      "command" => "Command::Kind"
    }.freeze

    @added = {}

    module_function

    def names = @added.keys + REGISTRY.keys

    def all = names.map { |name| fetch(name) }

    def find(name)
      return @added[name] if @added.key?(name)
      REGISTRY.key?(name) ? const_get(REGISTRY[name]) : nil
    end

    def fetch(name)
      find(name) || raise(ExperimentError, "unknown workload kind '#{name}': use one of #{names.join(", ")}")
    end

    # The kind whose selector is `key` ("app" => http), or nil.
    def by_selector(key) = all.find { |kind| kind.selector == key }

    def selectors = all.map(&:selector)

    # Adds a kind that is not in REGISTRY (a test's own) until `remove`; it is tried first.
    def add(kind) = @added[kind.kind] = kind

    def remove(kind) = @added.delete(kind.kind)
  end
end
