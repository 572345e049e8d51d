# The contract of a workload kind, with its defaults. A kind is a module that extends this one, lives
# in kinds/<kind>/kind.rb beside its driver and whatever else it needs, and has one line in the
# registry (Kinds). It must define kind, driver and load; everything else has a default. The experiment loader, the CLI, the run and the metric catalogue ask the kind;
# none of them names one. Everything here is read before a batch or about one; a batch is measured by
# `driver.new(context).run`, which returns a Kinds::Result and never raises for a batch that fails.
module Rubyrig
  module Kinds
    module Contract
      # The kind's name in workloads, plans and run.json, e.g. "http".
      def kind = raise(NotImplementedError, "#{self} must define kind")

      # The experiment key whose value is the kind's target, e.g. "app" for http.
      def selector = kind

      # The keys of a workload entry the kind reads, besides the common ones and its selector.
      def keys = []

      # The parameters every cell gets unless the experiment gives them (see effective_params).
      def default_params = {}

      # Parameters without a default that any workload of the kind may give, a built-in's too.
      def extra_params = []

      # A cell's parameters with the defaults merged in: what the plan records for each cell and its
      # batches run with. The one place defaults are merged (derived; not for kinds to override).
      def effective_params(params) = default_params.merge(params)

      # The parameters that set how many threads, processes or workers share the work: `rubyrig why`
      # takes each one down to 1 (through the powers of two between) on both runtimes of a difference.
      def concurrency_params = %w[threads processes]

      # Parameters with other settings worth trying one at a time (`rubyrig why`): name => every value.
      def alternative_params = {}

      # The options every workload of the kind runs with unless its entry (or `load`) gives them.
      def default_options = {}

      # The options a workload's batches run with: its own (those it leaves null too) over the kind's
      # defaults, and what a kind derives from them. Taken once when the run is created; run.json
      # records them and a `--resume` runs exactly those, whatever today's defaults are.
      def effective_options(workload) = default_options.merge(workload.options) { |_key, default, given| given.nil? ? default : given }

      # The candidates for the primary metric, in order: the report takes the first its batches have.
      def primary_metrics = %w[wall_s]

      # The metrics only this kind reports, as Metrics::Definition attributes; Metrics.catalogue adds them.
      def metrics = []

      # The class that measures one batch: `driver.new(context).run` returns a Kinds::Result.
      def driver = raise(NotImplementedError, "#{self} must define driver")

      # Validates the kind's part of a workload entry (an Experiment::Fields, whose checks name the
      # line and the fix) and returns a Kinds::Loaded. builtin: the built-in's definition, or nil.
      def load(_fields, builtin:) = raise(NotImplementedError, "#{self} must define load")

      # The workload entry of `compare -- ARGS` when ARGS are this kind's (e.g. a config.ru), else nil.
      def shortcut(_args) = nil

      # The run's name for a `compare` of such an entry, when no --name is given.
      def run_name(entry) = File.basename(entry[selector].to_s)

      # Checks, before the first batch, what would otherwise fail every batch of the runtime; raises
      # an Error with the fix. launch: the runtime's Runtimes::Launch.
      def preflight(_workload, _launch) = nil

      # The Gemfile of the batches of one cell (nil for none); each gets a gem set per runtime.
      def gemfile(workload, _params) = workload.gemfile

      # The gems a workload of the kind runs with (e.g. its app server); each gem set gets those its
      # Gemfile lacks added (Runtimes::Bundle#added_gems).
      def required_gems(_workload) = []

      # Whether each cell stands alone (a ruby-bench checkout's benchmarks): a gem set that does not
      # install, or a batch that fails before any of its cell succeeded, fails only that cell, whose
      # other batches then fail with the same reason without running; the rest of the run goes on.
      def cells_fail_alone?(_workload) = false

      # Every Gemfile the workload's cells use (derived from `gemfile`; not for kinds to override).
      def gemfiles(workload) = workload.param_combinations.filter_map { |params| gemfile(workload, params) }.uniq

      # The files whose content goes into the experiment's digest, by name (nested mappings allowed).
      def digest_paths(workload) = {"target" => workload.target, "gemfile" => workload.gemfile}

      # Facts about a workload for run.json, besides its kind, primary metrics and sweeps.
      def run_meta(_workload, server_cpus:, load_cpus:, cpus:) = {}

      # Where the workload's `prepare:` step runs, and the environment it gets on top of the runtime's.
      def prepare(workload) = [workload.base_dir, {}]
    end
  end
end
