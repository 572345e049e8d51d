# The catalogue of metrics: unit, which direction is better, and whether a change means faster/slower.
# The common ones are here; each workload kind brings its own. A run records them all in run.json
# (Catalogue), and its reports read them from there.
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

    # The metrics of every kind: the process tree's time, boot, resources, GC, YJIT and GVL. Each kind
    # adds its own (Kinds::Contract#metrics).
    COMMON = [
      {name: "wall_s", unit: "s", higher_is_better: false, kind: :speed, label: "process wall time"},
      {name: "boot_s", unit: "s", higher_is_better: false, kind: :speed, label: "boot time"},
      {name: "error_count", unit: "", higher_is_better: false, kind: :resource, label: "errors"},
      # resources of the process tree
      {name: "cpu_user_s", unit: "s", higher_is_better: false, kind: :resource, label: "CPU user"},
      {name: "cpu_sys_s", unit: "s", higher_is_better: false, kind: :resource, label: "CPU sys"},
      {name: "peak_rss_bytes", unit: "B", higher_is_better: false, kind: :memory, label: "peak RSS"},
      {name: "end_rss_bytes", unit: "B", higher_is_better: false, kind: :memory, label: "end RSS"},
      {name: "end_pss_bytes", unit: "B", higher_is_better: false, kind: :memory, label: "end PSS"},
      {name: "ruby_heap_bytes", unit: "B", higher_is_better: false, kind: :memory, label: "Ruby heap"},
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
    ].freeze

    # Metrics that every table shows next to the workload's primary metric.
    HEADLINE = %w[peak_rss_bytes cpu_user_s gvl_wait_fraction].freeze

    module_function

    # name => Definition of every metric rubyrig knows today: the common ones and those of every
    # registered kind. What a new run records; a report reads its run's own (Catalogue).
    def catalogue = current.definitions

    # Today's Catalogue.
    def current
      names = Kinds.names
      return @current if @current_names == names
      @current_names = names
      definitions = (COMMON + Kinds.all.flat_map(&:metrics)).to_h { |attrs| [attrs[:name], Definition.new(rate: false, **attrs).freeze] }
      @current = Catalogue.new(definitions, headline: HEADLINE, recorded: false)
    end

    # Reads every definition inside the block from this Catalogue (a run's, RunMeta#metrics): an
    # analysis and whatever renders its report see the definitions the run recorded, not today's.
    # Thread-local, and restored when the block ends.
    def using(catalogue)
      before = Thread.current.thread_variable_get(:rubyrig_metrics)
      Thread.current.thread_variable_set(:rubyrig_metrics, catalogue)
      yield
    ensure
      Thread.current.thread_variable_set(:rubyrig_metrics, before)
    end

    # The Catalogue in use: the one `using` set, else today's.
    def in_use = Thread.current.thread_variable_get(:rubyrig_metrics) || current

    def headline(primary) = in_use.headline(primary)

    def fetch(name) = in_use.fetch(name)

    def known?(name) = in_use.known?(name)
  end
end
