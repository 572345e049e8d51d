# One factor switched on both runtimes of a difference: what it is (name: concurrency, alternative,
# mn, cpus, gc, yjit, yjit_mem, jemalloc), how it reads ("threads=1, 2", "+mn on 3.3.8"), what it
# changes in the follow-up experiment (params: values that replace the cell's, a list makes a row per
# value; runtimes: label => the runtime's new experiment entry; experiment: top-level keys replaced,
# nil removing one, such as cpus), what the run did instead (was: "running 4 threads"), where the
# follow-up stands (at: "with +mn"; a sweep's "at" is followed by each point: "at threads=1") and why
# it is tried (reason, with the measured figure behind it).
module Rubyrig
  module Ablation
    Switch = Struct.new(:name, :label, :params, :runtimes, :experiment, :was, :at, :reason, keyword_init: true) do
      # The follow-up's folder name inside the difference's, e.g. "threads" or "gc".
      def slug = ([name] + params.keys).uniq.join("-").gsub(/[^A-Za-z0-9._]+/, "-")

      # How many cells each runtime gets: one per combination of the swept values.
      def cells = params.values.map { |v| Array(v).size }.reduce(1, :*)

      def with(**changes) = self.class.new(**to_h, **changes).freeze
    end
  end
end
