# A runtime spec ("[LABEL=]BASE[+variant...]") parsed into its parts, plus env and flags from a file.
module Rubyrig
  class Experiment
    Runtime = Struct.new(:label, :spec, :base, :variants, :env, :flags, keyword_init: true)

    class Runtime
      VARIANT_PATTERN = /\A(?<name>[a-z][a-z-]*)(?:=(?<value>[^+=]+))?\z/
      # Every variant rubyrig knows; the ones with a value say what the value is.
      VARIANTS = %w[yjit yjit-mem yjit-stats jemalloc mn].freeze
      VALUED = {"yjit-mem" => "a size in MiB, e.g. +yjit-mem=32"}.freeze
      LABEL_PATTERN = /\A(?<label>[A-Za-z0-9_.:-]+)=(?<rest>.+)\z/

      # A spec whose variant lists several values ("3.3.8+yjit-mem=16,32,64") names one runtime per value.
      def self.expand(text)
        base, *variants = text.to_s.strip.split("+")
        return [text] if variants.none? { |v| v.include?(",") }
        if base.to_s.match?(LABEL_PATTERN) && !base.include?("/")
          raise RuntimeSpecError, "runtime '#{text}' lists several values, so it names several runtimes and cannot take one label; drop the label"
        end
        choices = variants.map do |v|
          name, values = v.split("=", 2)
          values ? values.split(",").map { |value| "#{name}=#{value}" } : [v]
        end
        choices.first.product(*choices.drop(1)).map { |picked| ([base] + picked).join("+") }
      end

      # Parses a spec string. Labels default to the spec itself, so "system+yjit" is labelled
      # "system+yjit" and "a=system" is labelled "a".
      def self.parse(text, env: {}, flags: [], label: nil)
        text = text.to_s.strip
        raise RuntimeSpecError, "empty runtime spec: give one like system, 3.3.8+yjit or jruby" if text.empty?
        if (m = LABEL_PATTERN.match(text)) && !m[:label].include?("/")
          label ||= m[:label]
          text = m[:rest]
        end
        base, *variant_texts = text.split("+")
        if base.nil? || base.empty?
          raise RuntimeSpecError, "runtime spec '#{text}' has no interpreter before '+': write e.g. system+yjit"
        end
        variants = variant_texts.to_h { |v| variant(v, text) }
        new(
          label: label || text, spec: text, base: base, variants: variants.freeze,
          env: env.transform_keys(&:to_s).transform_values(&:to_s).freeze, flags: flags.map(&:to_s).freeze
        ).freeze
      end

      # [name, value] of one "+variant" text, checked against the known variants.
      def self.variant(text, spec)
        m = VARIANT_PATTERN.match(text)
        raise RuntimeSpecError, "bad variant '#{text}' in runtime '#{spec}': write e.g. +yjit or +yjit-mem=32" unless m
        name = m[:name]
        unless VARIANTS.include?(name)
          raise RuntimeSpecError, "unknown variant +#{name} in runtime '#{spec}'; #{Suggest.hint(name, VARIANTS, quote: "", prefix: "+")}"
        end
        if VALUED.key?(name) && !m[:value].to_s.match?(/\A[1-9]\d*\z/)
          raise RuntimeSpecError, "runtime '#{spec}': +#{name} needs #{VALUED[name]}"
        end
        raise RuntimeSpecError, "runtime '#{spec}': +#{name} takes no value; write +#{name}" if !VALUED.key?(name) && m[:value]
        [name, m[:value] || true]
      end

      def to_h = {label: label, spec: spec, base: base, variants: variants, env: env, flags: flags}
    end
  end
end
