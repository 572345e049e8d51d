# The settings each workload's batches run with, taken once. A new run takes the options its kind
# gives (today's defaults filled in: Kinds::Contract#effective_options), its iterations, warmup and
# deadline, and run.json records them per workload; a resumed run runs exactly what was recorded.
module Rubyrig
  module Run
    module WorkloadOptions
      module_function

      # The experiment with each workload's effective options and deadline (a new run).
      def effective(experiment, kinds)
        experiment.with_workloads(experiment.workloads.map { |w| effective_workload(w, experiment, kinds) })
      end

      def effective_workload(workload, experiment, kinds)
        workload.with(options: kinds.fetch(workload.kind).effective_options(workload),
          timeout_s: workload.timeout_s || experiment.timeout_s)
      end

      # What run.json records of a workload's settings, beside its kind and metrics.
      def record(workload)
        {"options" => workload.options, "iterations" => workload.iterations, "warmup" => workload.warmup,
         "timeout_s" => workload.timeout_s}
      end

      # [the experiment with the settings run.json recorded for each workload, a warning or nil]: the
      # workloads of a run that recorded none (an older rubyrig) get today's defaults, and the warning
      # says so.
      def recorded(experiment, run, kinds)
        missing = []
        workloads = experiment.workloads.map do |w|
          entry = run.workload(w.name)
          next w.with(options: entry.options, iterations: entry.iterations, warmup: entry.warmup, timeout_s: entry.timeout_s) if entry.options
          missing << w.name
          effective_workload(w, experiment, kinds)
        end
        warning = missing.empty? ? nil : "run.json records no options for #{missing.join(", ")} (a run from an older rubyrig), so its remaining batches run with today's defaults"
        [experiment.with_workloads(workloads), warning]
      end
    end
  end
end
