# Entry point of the rubyrig library: the error classes, and Zeitwerk loading every constant from the file
# its name gives (Rubyrig::Results::Store in rubyrig/results/store.rb). Code that runs inside measured
# processes (the probe, the built-in workloads, the Sidekiq support, the watchdog, the stub server)
# stays outside the loader: it uses the standard library only.
require "zeitwerk"

module Rubyrig
  # Base class of every error a user can cause and fix; the CLI prints its message as one line.
  class Error < StandardError; end

  # Wrong command-line usage.
  class UsageError < Error; end

  # An experiment file (or CLI shortcut) that cannot be turned into a plan.
  class ExperimentError < Error; end

  # A runtime spec that names no interpreter, or a variant that cannot hold for it.
  class RuntimeSpecError < Error; end

  # An external program rubyrig needs is not installed.
  class ToolMissing < Error; end

  # A results directory that cannot be created, read or resumed.
  class StoreError < Error; end

  # Building an interpreter or installing a gem set failed.
  class BuildError < Error; end

  # Shard results that cannot be merged into one run.
  class MergeError < Error; end

  ROOT = File.expand_path("..", __dir__)

  # The version of the results format (run.json, trials.jsonl) this rubyrig writes.
  RESULTS_FORMAT_VERSION = 3

  # Under lib/rubyrig: code that runs inside measured processes or as a process of its own.
  OUTSIDE_LOADER = %w[probe workloads sidekiq processes/watchdog.rb services/stub_server.rb].freeze

  LOADER = Zeitwerk::Loader.for_gem.tap do |loader|
    loader.inflector.inflect("cli" => "CLI")
    OUTSIDE_LOADER.each { |path| loader.ignore(File.join(__dir__, "rubyrig", path)) }
    loader.setup
  end
end
