# The switches that apply to one difference's cell, one method per kind of switch (Switches lists
# them); each returns the switches it makes, none when it does not apply (a one-thread cell has no
# thread count to lower, JRuby has no +mn).
module Rubyrig
  module Ablation
    class Builders
      YJIT_VARIANTS = %w[yjit yjit-mem yjit-stats].freeze

      def initialize(context, gc_env: GC_ENV, yjit_mem_mib: YJIT_MEM_MIB)
        @context = context
        @gc_env = gc_env
        @yjit_mem_mib = yjit_mem_mib
      end

      # Each concurrency parameter above 1: down to 1, through at most two powers of two between.
      def concurrency
        @context.kind.concurrency_params.filter_map do |param|
          value = @context.effective_params[param]
          next unless value.is_a?(Integer) && value > 1
          values = [1] + (1..).lazy.map { |i| 2**i }.take_while { |p| p < value }.to_a.last(2)
          was = param.end_with?("s") ? "running #{value} #{param}" : "#{param}=#{value}"
          switch("concurrency", "#{param}=#{values.join(", ")}", params: {param => values}, was: was, at: "at")
        end
      end

      # The kind's other settings of a parameter (keep-alive against close).
      def alternative
        @context.kind.alternative_params.filter_map do |param, values|
          current = @context.effective_params[param]
          others = values - [current]
          next if current.nil? || others.empty?
          switch("alternative", "#{param}=#{others.join(", ")}", params: {param => others}, was: "#{param}=#{current}", at: "with")
        end
      end

      # M:N threads on the runtimes whose interpreter has them (CRuby 3.3+).
      def mn
        labels = @context.labels.select { |l| @context.interpreter(l)["mn"] == true && !@context.runtime(l).variants.key?("mn") }
        return [] if labels.empty?
        runtimes = labels.to_h { |l| [l, Change.add_variant(@context.runtime(l), "mn")] }
        on = "+mn on #{labels.join(" and ")}"
        [switch("mn", on, runtimes: runtimes, was: "one native thread per Ruby thread", at: "with #{on}")]
      end

      # Pinned to one CPU when the run spread over all, spread when it was pinned.
      def cpus
        return [] unless @context.cpu_count.to_i > 1
        if @context.cpus
          return [switch("cpus", "spread over all CPUs", experiment: {"cpus" => nil}, was: "pinned to CPUs #{@context.cpus}", at: "spread over all CPUs")]
        end
        cpu = (@context.cpu_count - 1).to_s
        [switch("cpus", "pinned to CPU #{cpu}", experiment: {"cpus" => cpu}, was: "running spread over #{@context.cpu_count} CPUs", at: "pinned to CPU #{cpu}")]
      end

      # A larger initial heap and malloc limits on both runtimes (CRuby's RUBY_GC_* variables).
      def gc
        return [] unless @context.cruby?
        runtimes = @context.labels.to_h { |l| [l, Change.gc_env(@context.runtime(l), @gc_env)] }
        given = @context.labels.flat_map { |l| @context.runtime(l).env.keys.grep(/\ARUBY_GC_/) }.uniq
        was = given.empty? ? "the default GC heap" : "the GC settings #{given.join(", ")}"
        [switch("gc", "a larger GC heap", runtimes: runtimes, was: was, at: "with a larger GC heap")]
      end

      # YJIT off where a runtime runs it, else on where both interpreters have it.
      def yjit
        runtimes = @context.labels.map { |l| @context.runtime(l) }
        if runtimes.any? { |r| Change.yjit?(r) }
          off = runtimes.to_h { |r| [r.label, Change.remove_variants(r, YJIT_VARIANTS)] }
          return [switch("yjit", "YJIT off", runtimes: off, was: "YJIT", at: "with YJIT off")]
        end
        return [] unless @context.labels.all? { |l| @context.interpreter(l)["yjit"] == true }
        on = runtimes.to_h { |r| [r.label, Change.add_variant(r, "yjit")] }
        [switch("yjit", "YJIT on", runtimes: on, was: "the interpreter without YJIT", at: "with YJIT on")]
      end

      # One code region size on the runtimes that run YJIT.
      def yjit_mem
        size = @yjit_mem_mib.to_s
        runtimes = @context.labels.map { |l| @context.runtime(l) }.select { |r| Change.yjit?(r) && r.variants["yjit-mem"] != size }
        return [] if runtimes.empty?
        changed = runtimes.to_h { |r| [r.label, Change.entry(r, variants: r.variants.except(*YJIT_VARIANTS).merge("yjit-mem" => size))] }
        [switch("yjit_mem", "YJIT code region #{size} MiB", runtimes: changed, was: "YJIT's code region as run", at: "with a #{size} MiB YJIT code region")]
      end

      # jemalloc on the CRuby runtimes that use glibc's malloc.
      def jemalloc
        labels = @context.labels.select do |l|
          facts = @context.interpreter(l)
          facts["engine"] == "ruby" && facts["jemalloc_linked"] != true && !@context.runtime(l).variants.key?("jemalloc")
        end
        return [] if labels.empty?
        runtimes = labels.to_h { |l| [l, Change.add_variant(@context.runtime(l), "jemalloc")] }
        [switch("jemalloc", "+jemalloc on #{labels.join(" and ")}", runtimes: runtimes, was: "glibc's malloc", at: "with jemalloc")]
      end

      private

      def switch(name, label, was:, at:, params: {}, runtimes: {}, experiment: {})
        Switch.new(name: name, label: label, params: params.freeze, runtimes: runtimes.freeze, experiment: experiment.freeze,
          was: was, at: at, reason: nil).freeze
      end
    end
  end
end
