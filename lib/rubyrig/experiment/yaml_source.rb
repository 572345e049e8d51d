# Reads a YAML file safely (Psych.safe_load) and remembers the line of every key and item, so that
# validation errors can say "experiment.yml:12".
require "psych"

module Rubyrig
  class Experiment
    class YamlSource
      attr_reader :path, :data

      def self.load(path)
        text = Processes::TextFile.read(path)
        new(path, text)
      rescue SystemCallError => e # unreadable file (missing, a directory, no permission, a name too long): say which and why
        raise ExperimentError, "cannot read experiment file #{path}: #{e.message.sub(/ @ .*/, "")}"
      end

      # For data that did not come from a file (CLI shortcuts): no lines to report. flags: which
      # command-line flag gave the value at a path of keys ({["cpus"] => "--cpus"}), so that an error
      # names the flag.
      def self.from_data(data, label, flags: {})
        source = allocate
        source.instance_variable_set(:@path, label)
        source.instance_variable_set(:@data, data)
        source.instance_variable_set(:@lines, {})
        source.instance_variable_set(:@flags, flags)
        source
      end

      # Deeper than any experiment needs; Psych reads nesting by recursion, which a hostile file could
      # drive past the end of the stack (and its parser takes quadratic time over flow brackets).
      MAX_DEPTH = 64

      def initialize(path, text)
        @path = path
        check_brackets(text)
        document = Psych.parse(text, filename: path)
        check_depth(document)
        @data = Psych.safe_load(text, permitted_classes: [], aliases: false, filename: path)
        @lines = {}
        index(document.root, []) if document
      rescue Psych::SyntaxError => e
        raise ExperimentError, "#{path}:#{e.line}: YAML syntax error: #{e.problem}; fix the indentation or quoting there"
      rescue Psych::DisallowedClass, Psych::BadAlias => e # safe_load refuses tags and aliases
        raise ExperimentError, "#{path}: #{e.message}; experiment files take plain YAML values only"
      end

      # [flag, the keys below it] when a command-line flag gave the value at `keys`, else nil.
      def flag_for(keys)
        prefix = (@flags || {}).keys.select { |k| keys.first(k.size) == k }.max_by(&:size)
        prefix && [@flags[prefix], keys.drop(prefix.size)]
      end

      # "file:line" for a path of keys and indexes, falling back to the nearest parent with a line.
      def where(keys)
        keys = keys.dup
        until keys.empty?
          line = @lines[keys]
          return "#{@path}:#{line}" if line
          keys.pop
        end
        @path.to_s
      end

      private

      def check_brackets(text)
        depth = 0
        text.each_char do |char|
          depth += 1 if char == "[" || char == "{"
          depth -= 1 if char == "]" || char == "}"
          raise ExperimentError, "#{@path}: values nest more than #{MAX_DEPTH} levels deep; an experiment needs a few" if depth > MAX_DEPTH * 4
        end
      end

      def check_depth(document)
        level = document ? [[document, 0]] : []
        until level.empty?
          node, depth = level.pop
          if depth > MAX_DEPTH
            raise ExperimentError, "#{@path}:#{node.start_line + 1}: values nest more than #{MAX_DEPTH} levels deep; an experiment needs a few"
          end
          (node&.children || []).each { |child| level << [child, depth + 1] }
        end
      end

      def index(node, keys)
        @lines[keys] = node.start_line + 1
        case node
        when Psych::Nodes::Mapping
          node.children.each_slice(2) do |key, value|
            child = keys + [key.respond_to?(:value) ? key.value : key.to_s]
            @lines[child] = key.start_line + 1
            index(value, child)
            @lines[child] = key.start_line + 1
          end
        when Psych::Nodes::Sequence
          node.children.each_with_index { |item, i| index(item, keys + [i]) }
        end
      end
    end
  end
end
