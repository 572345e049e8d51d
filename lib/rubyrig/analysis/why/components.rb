# The measured components a difference is split into, and each batch's value of every one per unit of
# work. The batches record each component for the whole process tree over its life, so a share of it
# is taken for the measured work:
# - a script or command (wall_s): resources spread evenly over the wall time, so a component per unit
#   is its amount per second of wall times the seconds of wall per unit (1 / rate, or the duration);
# - HTTP (server_cpu_s, request_count) and jobs (drain_cpu_s, processed_count): resources spread in
#   proportion to CPU, so a component per unit is its amount times the share of the tree's CPU spent
#   in the measured window (the load, or the drain), over the requests or jobs completed in it.
# Memory components are bytes of the same process tree: YJIT's, the Ruby heap's pages, and the rest
# of peak RSS (malloc, thread stacks, the interpreter's mappings). A component the batch did not record is nil
# (not measured); YJIT's are 0 where the probe saw YJIT off.
module Rubyrig
  class Analysis
    module Why
      module Components
        # name: the metric; factor: the word a named factor uses; additive: it adds up to the primary
        # cost, so that its share of the difference means something.
        Component = Struct.new(:name, :factor, :additive, :label, :yjit, keyword_init: true)

        SPEED = [
          Component.new(name: "cpu_user_s", factor: "cpu_user", additive: true, label: "CPU user", yjit: false),
          Component.new(name: "cpu_sys_s", factor: "cpu_sys", additive: true, label: "CPU sys", yjit: false),
          Component.new(name: "gc_time_s", factor: "gc", additive: true, label: "GC time", yjit: false),
          Component.new(name: "yjit_compile_time_s", factor: "jit", additive: true, label: "YJIT compile time", yjit: true),
          Component.new(name: "gvl_wait_s", factor: "gvl", additive: true, label: "GVL wait", yjit: false),
          Component.new(name: "voluntary_ctx_switches", factor: "context_switches", additive: false, label: "voluntary context switches", yjit: false),
          Component.new(name: "involuntary_ctx_switches", factor: "context_switches", additive: false, label: "involuntary context switches", yjit: false)
        ].map(&:freeze).freeze

        # The rest of peak RSS once the Ruby heap and YJIT's memory are taken out.
        REST = "other_rss_bytes"

        MEMORY = [
          Component.new(name: "yjit_code_region_bytes", factor: "yjit_code_region", additive: true, label: "YJIT code region", yjit: true),
          Component.new(name: "yjit_alloc_bytes", factor: "jit", additive: true, label: "YJIT allocations", yjit: true),
          Component.new(name: "ruby_heap_bytes", factor: "ruby_heap", additive: true, label: "Ruby heap", yjit: false),
          Component.new(name: REST, factor: "malloc", additive: true, label: "rest of RSS (malloc, stacks, mappings)", yjit: false)
        ].map(&:freeze).freeze

        # The CPU of the measured window and the units of work done in it, of HTTP and of jobs.
        WINDOWS = [%w[server_cpu_s request_count], %w[drain_cpu_s processed_count]].freeze

        # What one unit of work of each primary metric is called.
        UNITS = {"iterations_per_s" => "iteration", "requests_per_s" => "request", "jobs_per_s" => "job"}.freeze

        module_function

        def for(metric) = (metric == MEMORY_METRIC) ? MEMORY : SPEED

        def unit_word(metric) = (metric == MEMORY_METRIC) ? nil : UNITS.fetch(metric, "run")

        # The primary cost of one unit of work in a batch: seconds per unit for a rate, the duration
        # itself, or the bytes of a memory metric.
        def cost(metrics, metric)
          value = metrics[metric]
          return nil unless value.is_a?(Numeric) && value.positive?
          Metrics.fetch(metric).rate ? 1.0 / value : value.to_f
        end

        # One batch's value of a component per unit of work, or nil when the batch did not measure it.
        def per_unit(trial, component, metric)
          return rest(trial, metric) if component.name == REST
          value = trial.metrics[component.name]
          value = 0.0 if value.nil? && component.yjit && trial.facts.to_h["yjit_enabled"] == false
          return nil unless value.is_a?(Numeric)
          return value.to_f if metric == MEMORY_METRIC
          scale = scale(trial.metrics, metric)
          scale && value * scale
        end

        # Peak RSS less the Ruby heap and YJIT's memory, or nil when one of them was not measured.
        def rest(trial, metric)
          parts = MEMORY.first(3).map { |c| per_unit(trial, c, metric) }
          rss = trial.metrics[metric]
          (parts.all? && rss.is_a?(Numeric)) ? rss - parts.sum : nil
        end

        # What turns a whole batch's amount into the amount per unit of work, or nil without the figures.
        def scale(m, metric)
          wall = m["wall_s"]
          cost = cost(m, metric)
          return cost / wall if cost && positive?(wall)
          window, units = WINDOWS.map { |cpu, count| [m[cpu], m[count]] }.find { |cpu, count| positive?(cpu) && positive?(count) }
          total = m["cpu_user_s"].to_f + m["cpu_sys_s"].to_f
          (window && total.positive?) ? window / total / units : nil
        end

        def positive?(value) = value.is_a?(Numeric) && value.positive?
      end
    end
  end
end
