# The registry of workload drivers: which experiment key selects which kind, and the class that runs it.
module Rubyrig
  module Drivers
    # kind => class name; experiment key => kind.
    KINDS = {"script" => :Script, "command" => :Command, "http" => :Http, "jobs" => :Jobs}.freeze
    SELECTORS = {"script" => "script", "command" => "command", "app" => "http", "jobs" => "jobs"}.freeze

    module_function

    def fetch(kind)
      name = KINDS.fetch(kind) { raise ExperimentError, "unknown workload kind '#{kind}': use one of #{KINDS.keys.join(", ")}" }
      const_get(name)
    end

    def selectors = SELECTORS
  end
end
