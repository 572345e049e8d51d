# One mapping of an experiment (the top level, a runtime, a workload entry) with the checks the loader
# and every workload kind use: each failure raises with the file and line of the key (or the
# command-line flag that gave it) and the fix, so that no kind writes its own.
require "shellwords"

module Rubyrig
  class Experiment
    class Fields
      attr_reader :hash, :at, :base_dir

      # source: the YamlSource (lines and flags); at: the keys from the top to this mapping; base_dir:
      # what relative paths are relative to.
      def initialize(source, hash, at: [], base_dir: Dir.pwd)
        @source = source
        @hash = hash
        @at = at
        @base_dir = base_dir
      end

      def [](key) = @hash[key]

      def key?(key) = @hash.key?(key)

      # The mapping at `keys` below this one.
      def child(keys, hash) = Fields.new(@source, hash, at: @at + keys, base_dir: @base_dir)

      def path(value) = File.expand_path(value, @base_dir)

      # Raises for the value at `keys` below this mapping: a flag's usage error, or the file and line.
      # own_name: false when the message names the key itself.
      def fail(keys, message, own_name: true)
        keys = @at + keys
        name = keys.reverse.find { |k| k.is_a?(String) }
        flag, rest = @source.flag_for(keys)
        if flag
          subject = (own_name && rest.any? { |k| k.is_a?(String) }) ? "#{flag} #{name}" : flag
          raise UsageError, "#{subject} #{message}"
        end
        subject = (own_name && name) ? "#{name} " : ""
        raise ExperimentError, "#{@source.where(keys)}: #{subject}#{message}"
      end

      # Runs the block; an Error it raises (a bad runtime spec, an unknown built-in) becomes the error
      # of the value at `keys`.
      def wrap(keys)
        yield
      rescue Error => e
        flag = @source.flag_for(@at + keys)
        raise UsageError, "#{flag[0]}: #{e.message}" if flag
        raise ExperimentError, "#{@source.where(@at + keys)}: #{e.message}"
      end

      def check_keys(allowed, what)
        @hash.each_key do |key|
          next if allowed.include?(key)
          hint = Suggest.hint(key, allowed, fallback: "allowed keys: #{allowed.join(", ")}")
          fail([key], "unknown key '#{key}' in #{what}; #{hint}", own_name: false)
        end
      end

      def optional(key, type)
        value = @hash[key]
        return nil if value.nil?
        return value if value.is_a?(type)
        article = (type == Integer || type == Array) ? "an" : "a"
        fail([key], "must be #{article} #{type.name.downcase}, got #{value.inspect}")
      end

      def positive_integer(key, max: nil)
        value = @hash[key]
        return nil if value.nil?
        fail([key], "must be a positive integer, got #{value.inspect}; write e.g. #{key}: 5") unless value.is_a?(Integer) && value.positive?
        fail([key], "must be at most #{max}, got #{value}") if max && value > max
        value
      end

      def non_negative_integer(key)
        value = @hash[key]
        return nil if value.nil?
        fail([key], "must be an integer of 0 or more, got #{value.inspect}") unless value.is_a?(Integer) && value >= 0
        value
      end

      def positive_number(key)
        value = @hash[key]
        return nil if value.nil?
        fail([key], "must be a positive number of seconds, got #{value.inspect}") unless value.is_a?(Numeric) && value.positive?
        value
      end

      def boolean(key)
        value = @hash[key]
        return nil if value.nil?
        fail([key], "must be true or false, got #{value.inspect}") unless value == true || value == false
        value
      end

      def one_of(key, choices)
        value = @hash[key]
        return nil if value.nil?
        fail([key], "must be one of #{choices.join(", ")}, got #{value.inspect}") unless choices.include?(value)
        value
      end

      # A command as a list of arguments or a command line split as a shell would (without running
      # one), as strings; what: what it must be, for the error.
      def argv(key, what)
        value = @hash[key]
        argv = value.is_a?(String) ? split_command(key, value) : value
        valid = argv.is_a?(Array) && !argv.empty? && argv.all? { |a| a.is_a?(String) || a.is_a?(Numeric) }
        fail([key], "must be #{what}") unless valid
        argv.map(&:to_s).freeze
      end

      # The full path of an existing file; what: what it must be, e.g. "the path of a Ruby file".
      def file(key, what)
        value = @hash[key]
        fail([key], "must be #{what}") unless value.is_a?(String)
        full = path(value)
        fail([key], "file #{value} does not exist; give #{what}") unless File.file?(full)
        full
      end

      private

      def split_command(key, text)
        Shellwords.split(text)
      rescue ArgumentError => e # Shellwords' only complaint: a quote that is never closed
        fail([key], "has an #{e.message.sub(/:.*/m, "").downcase} in #{text.inspect}; close it, or give the command as a list of arguments")
      end
    end
  end
end
