# The catalogue of metrics: unit, which direction is better, and whether a change means faster/slower.
module Rubyrig
  module Metrics
    # kind: :speed metrics get faster/slower verdicts; the others get higher/lower.
    # rate: averaged in the time domain (harmonic mean) because the value is per second.
    Definition = Struct.new(:name, :unit, :higher_is_better, :kind, :rate, :label, keyword_init: true) do
      def speed? = kind == :speed

      # Whole-number counts (errors, GC runs, context switches): their spread is never below one unit.
      def count? = unit.empty? && name.match?(/(_count|_switches)\z/)

      def to_h = super.merge(kind: kind.to_s)
    end

    CATALOGUE = [
      # script and command workloads
      {name: "iterations_per_s", unit: "1/s", higher_is_better: true, kind: :speed, rate: true, label: "iterations/s"},
      {name: "run_s", unit: "s", higher_is_better: false, kind: :speed, label: "script run time"},
      {name: "wall_s", unit: "s", higher_is_better: false, kind: :speed, label: "process wall time"},
      {name: "warmup_s", unit: "s", higher_is_better: false, kind: :speed, label: "time to warm up"},
      # http workloads
      {name: "requests_per_s", unit: "1/s", higher_is_better: true, kind: :speed, rate: true, label: "requests/s"},
      {name: "latency_p50_s", unit: "s", higher_is_better: false, kind: :speed, label: "latency p50"},
      {name: "latency_p90_s", unit: "s", higher_is_better: false, kind: :speed, label: "latency p90"},
      {name: "latency_p99_s", unit: "s", higher_is_better: false, kind: :speed, label: "latency p99"},
      {name: "latency_p999_s", unit: "s", higher_is_better: false, kind: :speed, label: "latency p99.9"},
      {name: "latency_max_s", unit: "s", higher_is_better: false, kind: :speed, label: "latency max"},
      {name: "error_count", unit: "", higher_is_better: false, kind: :resource, label: "errors"},
      {name: "load_cpu_fraction", unit: "fraction", higher_is_better: false, kind: :resource, label: "load generator CPU"},
      {name: "boot_s", unit: "s", higher_is_better: false, kind: :speed, label: "boot time"},
      {name: "warmup_requests_per_s", unit: "1/s", higher_is_better: true, kind: :speed, rate: true, label: "requests/s during warmup"},
      {name: "request_count", unit: "", higher_is_better: true, kind: :resource, label: "completed responses"},
      {name: "measured_s", unit: "s", higher_is_better: false, kind: :resource, label: "measured duration"},
      {name: "error_rate", unit: "fraction", higher_is_better: false, kind: :resource, label: "error rate"},
      {name: "connect_error_count", unit: "", higher_is_better: false, kind: :resource, label: "connect errors"},
      {name: "read_error_count", unit: "", higher_is_better: false, kind: :resource, label: "read errors"},
      {name: "write_error_count", unit: "", higher_is_better: false, kind: :resource, label: "write errors"},
      {name: "timeout_error_count", unit: "", higher_is_better: false, kind: :resource, label: "timeouts"},
      {name: "non_2xx_3xx_count", unit: "", higher_is_better: false, kind: :resource, label: "non-2xx/3xx responses"},
      {name: "server_cpu_s", unit: "s", higher_is_better: false, kind: :resource, label: "server CPU (measured run)"},
      {name: "server_cpu_fraction", unit: "fraction", higher_is_better: false, kind: :resource, label: "server CPU / its CPUs"},
      {name: "load_cpu_s", unit: "s", higher_is_better: false, kind: :resource, label: "load generator CPU time"},
      # jobs workloads
      {name: "jobs_per_s", unit: "1/s", higher_is_better: true, kind: :speed, rate: true, label: "jobs/s"},
      {name: "enqueue_per_s", unit: "1/s", higher_is_better: true, kind: :speed, rate: true, label: "enqueue rate"},
      {name: "drain_s", unit: "s", higher_is_better: false, kind: :speed, label: "drain time"},
      {name: "enqueue_s", unit: "s", higher_is_better: false, kind: :speed, label: "enqueue time"},
      {name: "drain_cpu_s", unit: "s", higher_is_better: false, kind: :resource, label: "worker CPU during the drain"},
      {name: "processed_count", unit: "", higher_is_better: true, kind: :resource, label: "jobs processed"},
      {name: "enqueued_count", unit: "", higher_is_better: true, kind: :resource, label: "jobs enqueued"},
      {name: "warmup_jobs_per_s", unit: "1/s", higher_is_better: true, kind: :speed, rate: true, label: "jobs/s during warmup"},
      {name: "warmup_drain_s", unit: "s", higher_is_better: false, kind: :speed, label: "warmup drain time"},
      {name: "warmup_processed_count", unit: "", higher_is_better: true, kind: :resource, label: "warmup jobs processed"},
      {name: "check_failure_count", unit: "", higher_is_better: false, kind: :resource, label: "checks down"},
      {name: "job_run_p50_s", unit: "s", higher_is_better: false, kind: :speed, label: "job run p50"},
      {name: "job_run_p90_s", unit: "s", higher_is_better: false, kind: :speed, label: "job run p90"},
      {name: "job_run_p99_s", unit: "s", higher_is_better: false, kind: :speed, label: "job run p99"},
      {name: "queue_wait_p50_s", unit: "s", higher_is_better: false, kind: :speed, label: "queue wait p50"},
      {name: "queue_wait_p90_s", unit: "s", higher_is_better: false, kind: :speed, label: "queue wait p90"},
      {name: "queue_wait_p99_s", unit: "s", higher_is_better: false, kind: :speed, label: "queue wait p99"},
      {name: "check_latency_p50_s", unit: "s", higher_is_better: false, kind: :speed, label: "check latency p50"},
      {name: "check_latency_p90_s", unit: "s", higher_is_better: false, kind: :speed, label: "check latency p90"},
      {name: "check_latency_p99_s", unit: "s", higher_is_better: false, kind: :speed, label: "check latency p99"},
      # resources of the process tree
      {name: "cpu_user_s", unit: "s", higher_is_better: false, kind: :resource, label: "CPU user"},
      {name: "cpu_sys_s", unit: "s", higher_is_better: false, kind: :resource, label: "CPU sys"},
      {name: "peak_rss_bytes", unit: "B", higher_is_better: false, kind: :memory, label: "peak RSS"},
      {name: "end_rss_bytes", unit: "B", higher_is_better: false, kind: :memory, label: "end RSS"},
      {name: "end_pss_bytes", unit: "B", higher_is_better: false, kind: :memory, label: "end PSS"},
      {name: "voluntary_ctx_switches", unit: "", higher_is_better: false, kind: :resource, label: "voluntary context switches"},
      {name: "involuntary_ctx_switches", unit: "", higher_is_better: false, kind: :resource, label: "involuntary context switches"},
      # GC, YJIT and GVL
      {name: "gc_count", unit: "", higher_is_better: false, kind: :resource, label: "GC runs"},
      {name: "gc_minor_count", unit: "", higher_is_better: false, kind: :resource, label: "minor GCs"},
      {name: "gc_major_count", unit: "", higher_is_better: false, kind: :resource, label: "major GCs"},
      {name: "gc_time_s", unit: "s", higher_is_better: false, kind: :resource, label: "GC time"},
      {name: "yjit_code_region_bytes", unit: "B", higher_is_better: false, kind: :memory, label: "YJIT code region"},
      {name: "yjit_alloc_bytes", unit: "B", higher_is_better: false, kind: :memory, label: "YJIT allocations"},
      {name: "yjit_compile_time_s", unit: "s", higher_is_better: false, kind: :resource, label: "YJIT compile time"},
      {name: "yjit_ratio_in_yjit", unit: "fraction", higher_is_better: true, kind: :resource, label: "ratio in YJIT"},
      {name: "gvl_wait_s", unit: "s", higher_is_better: false, kind: :resource, label: "GVL wait"},
      {name: "gvl_wait_fraction", unit: "fraction", higher_is_better: false, kind: :resource, label: "GVL wait / wall"},
      {name: "gvl_waiting_threads", unit: "", higher_is_better: false, kind: :resource, label: "threads waiting for GVL"}
    ].to_h { |attrs| [attrs[:name], Definition.new(rate: false, **attrs).freeze] }.freeze

    # Metrics that every table shows next to the workload's primary metric.
    HEADLINE = %w[peak_rss_bytes cpu_user_s gvl_wait_fraction].freeze

    module_function

    # The metrics a table shows after the primary one; a script timed as a whole run also shows the
    # interpreter's boot, which its run time leaves out.
    def headline(primary) = ((primary == "run_s") ? ["boot_s"] : []) + (HEADLINE - [primary])

    # A metric outside the catalogue (e.g. a per-check latency) gets its unit and direction from
    # its name's suffix: _per_s is a rate (higher is better), _s seconds and _bytes bytes (lower).
    def fetch(name)
      CATALOGUE.fetch(name) do
        unit, higher, rate = case name
        when /_per_s\z/ then ["1/s", true, true]
        when /_s\z/ then ["s", false, false]
        when /_bytes\z/ then ["B", false, false]
        else ["", false, false]
        end
        Definition.new(name: name, unit: unit, higher_is_better: higher, kind: :resource, rate: rate, label: name).freeze
      end
    end

    def known?(name) = CATALOGUE.key?(name)
  end
end
