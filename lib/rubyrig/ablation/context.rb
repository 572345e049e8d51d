# What the switches of one difference are chosen from: the difference, its cell's effective parameters,
# the workload's kind (a Kinds::Contract: which parameters set concurrency, which have alternatives),
# the run's runtimes (label => Experiment::Runtime) and the interpreters they resolved to (label =>
# run.json's record), the pinning the run used (nil: none), the host's CPU count, and the Evidence.
module Rubyrig
  module Ablation
    Context = Struct.new(:difference, :effective_params, :kind, :runtimes, :interpreters, :cpus, :cpu_count, :evidence,
      keyword_init: true) do
      # The two runtimes of the difference, reference first.
      def labels = [difference.reference, difference.runtime]

      def runtime(label) = runtimes.fetch(label)

      def interpreter(label) = interpreters.fetch(label, {})

      def cruby? = labels.all? { |label| interpreter(label)["engine"] == "ruby" }
    end
  end
end
