# Which factors to switch for one difference, in order, and why each: the switches the Why section's
# factors point at (FACTORS), or every switch that applies to the cell when it names none or none of
# theirs applies (ORDER), each with the measured figure that makes it worth trying (Evidence) or the
# word that nothing points at it.
module Rubyrig
  module Ablation
    class Switches
      # The switches each factor of the Why section points at, in the order they are tried; the most
      # specific factors first, whose figure a switch's reason cites when no factor is named.
      FACTORS = {
        "gvl" => %w[concurrency mn cpus], "gc" => %w[gc], "ruby_heap" => %w[gc jemalloc], "malloc" => %w[jemalloc gc],
        "jit" => %w[yjit yjit_mem], "yjit_code_region" => %w[yjit_mem yjit],
        "context_switches" => %w[concurrency mn cpus alternative], "cpu_sys" => %w[concurrency cpus mn alternative],
        "cpu_user" => %w[concurrency yjit gc]
      }.freeze

      # Every switch, in the order they are tried when no factor is named.
      ORDER = %w[concurrency alternative mn cpus gc yjit yjit_mem jemalloc].freeze

      def initialize(context, builders: Builders.new(context))
        @context = context
        @builders = builders
      end

      # The switches, each with its reason; when the named factors point at none that applies here (a
      # one-thread cell for GVL wait), every switch that applies, as when none is named.
      def list
        named = @context.difference.factors.select { |f| FACTORS.key?(f) }
        chosen = build(named.flat_map { |f| FACTORS.fetch(f) }.uniq, named)
        chosen.empty? ? build(ORDER, []) : chosen
      end

      private

      def build(names, named)
        names.flat_map { |name| @builders.public_send(name) }.map { |s| s.with(reason: "#{reason(s.name, named)}: trying #{s.label}") }
      end

      def reason(name, named)
        factor = named.find { |f| FACTORS.fetch(f).include?(name) }
        return @context.evidence.for(factor) || "the Why section names #{Evidence.label(factor)}" if factor
        pointing = FACTORS.select { |_, names| names.include?(name) }.keys
        pointing.lazy.filter_map { |f| @context.evidence.for(f) }.first || "no measured factor points at it, so it is tried to rule it out"
      end
    end
  end
end
