# The contract of a workload driver, and what every driver shares. A driver is built for one batch
# with `new(context)` (a Drivers::Context) and measures it with `run`, which returns a Result and
# never raises for a batch that fails (the Result says why); the class methods describe the kind to
# the experiment loader, the runner and run.json.
module Rubyrig
  module Drivers
    class Base
      # The outcome of one batch, before the runner stamps ids and times on it.
      # items: the measured items of a file that holds several (benchmark-ips reports), each
      # {"item", "metrics", "samples"}, or nil.
      Result = Struct.new(:status, :reason, :metrics, :facts, :samples, :artifacts, :warnings, :items, keyword_init: true) do
        def self.failed(reason, **rest) = new(status: Results::Trial::FAILED, reason: reason, metrics: {}, facts: {}, samples: {},
          artifacts: [], warnings: [], **rest)
      end

      def initialize(context)
        @context = context
      end

      # Measures the batch; every driver implements it.
      def run = raise(NotImplementedError, "#{self.class} must implement #run")

      # Extra keys this kind accepts in an experiment's workload entry.
      def self.option_keys = []

      # Validates and returns the kind-specific options; `fail` is called with (keys, message); target:
      # what load_target resolved.
      def self.load_options(_entry, _builtin, _fail, _target = nil) = {}

      # The metric shown first in tables for this workload.
      def self.primary_metric(_workload) = "wall_s"

      # The candidates for the primary metric, in order: the report takes the first the batches have.
      def self.primary_metrics(workload) = [primary_metric(workload)]

      # Resolves the value of this kind's selector key (e.g. a path); `fail` is called with a message.
      def self.load_target(value, _base_dir, _fail) = value

      # The Gemfile installed for a workload that names none (after the built-in's).
      def self.default_gemfile(_target) = nil

      # Every Gemfile the workload's batches use: each gets a gem set per runtime before the first batch.
      def self.gemfiles(workload) = [workload.gemfile].compact

      # The Gemfile of one cell's batches (nil for none).
      def self.gemfile(workload, _params) = workload.gemfile

      # The files whose content goes into the experiment's digest, by name (nested mappings allowed).
      def self.digest_paths(workload) = {"target" => workload.target, "gemfile" => workload.gemfile}

      # Checks, before the first batch, what would otherwise fail every batch of the runtime; raises
      # an Error with the fix. launch: the runtime's Runtimes::Launch.
      def self.preflight(_workload, _launch) = nil

      # The parameters a batch of this kind runs with: the cell's, with the kind's defaults merged in.
      def self.effective_params(_workload, params) = params

      # Extra facts about a workload for the run's metadata (run.json).
      def self.run_meta(_workload, server_cpus:, load_cpus:, cpus:) = {}

      # Where the workload's `prepare:` step runs, and what it gets on top of the runtime's environment.
      def self.prepare_dir(workload) = workload.base_dir

      def self.prepare_env(_workload) = {}
    end
  end
end
