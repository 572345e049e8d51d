# The catalogue of metrics: unit, which direction is better, and whether a change means faster/slower.
# The common ones are here; each workload kind brings its own.
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

    # name => Definition of every metric rubyrig knows: the common ones and those of every registered kind.
    def catalogue
      names = Kinds.names
      return @catalogue if @catalogue_names == names
      @catalogue_names = names
      @catalogue = (COMMON + Kinds.all.flat_map(&:metrics)).to_h { |attrs| [attrs[:name], Definition.new(rate: false, **attrs).freeze] }.freeze
    end

    # The metrics a table shows after the primary one; a script timed as a whole run also shows the
    # interpreter's boot, which its run time leaves out.
    def headline(primary) = ((primary == "run_s") ? ["boot_s"] : []) + (HEADLINE - [primary])

    # A metric outside the catalogue (e.g. a per-check latency) gets its unit and direction from
    # its name's suffix: _per_s is a rate (higher is better), _s seconds and _bytes bytes (lower).
    def fetch(name)
      catalogue.fetch(name) do
        unit, higher, rate = case name
        when /_per_s\z/ then ["1/s", true, true]
        when /_s\z/ then ["s", false, false]
        when /_bytes\z/ then ["B", false, false]
        else ["", false, false]
        end
        Definition.new(name: name, unit: unit, higher_is_better: higher, kind: :resource, rate: rate, label: name).freeze
      end
    end

    def known?(name) = catalogue.key?(name)
  end
end
