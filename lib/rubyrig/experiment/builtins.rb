# The registry of built-in workloads: each is a folder in lib/rubyrig/workloads with a workload.yml.
require "psych"

module Rubyrig
  class Experiment
    module Builtins
      DIR = File.expand_path("../workloads", __dir__)
      PREFIX = "builtin:"

      # What a built-in folder declares: its kind, main file, parameters with defaults, options, and the
      # prepare step (an argv run in its folder before the first batch, e.g. to build a database). An
      # http built-in may also give its default traffic: (Kinds::Http::Options reads it from fields).
      Definition = Struct.new(:name, :dir, :kind, :file, :description, :params, :iterations, :warmup, :options,
        :gemfile, :prepare, keyword_init: true) do
        def path = file && File.join(dir, file)

        def workload_name = "#{PREFIX}#{name}"

        # Its workload.yml as Fields, so that a kind checks the keys a built-in gives (e.g. traffic:)
        # as it checks an experiment's, with errors naming the file and line.
        def fields
          file = File.join(dir, "workload.yml")
          Fields.new(YamlSource.load(file), Psych.safe_load_file(file), base_dir: dir)
        end
      end

      module_function

      def names(dir: DIR)
        Dir.glob(File.join(dir, "*", "workload.yml")).map { |f| File.basename(File.dirname(f)) }.sort
      end

      def builtin?(text) = text.to_s.start_with?(PREFIX)

      # The definition for "nbody" or "builtin:nbody"; an unknown name gets a suggestion.
      def fetch(name, dir: DIR)
        name = name.to_s.delete_prefix(PREFIX)
        file = File.join(dir, name, "workload.yml")
        unless File.file?(file)
          hint = Suggest.hint(name, names(dir: dir), quote: "", prefix: PREFIX, fallback: "see `rubyrig workloads` for the list")
          raise ExperimentError, "unknown built-in workload '#{PREFIX}#{name}': #{hint}"
        end
        data = Psych.safe_load_file(file)
        Definition.new(
          name: name, dir: File.dirname(file), kind: data.fetch("kind"), file: data["file"],
          description: data["description"], params: data.fetch("params", {}),
          iterations: data["iterations"], warmup: data["warmup"], options: data.fetch("options", {}),
          gemfile: File.file?(gemfile = File.join(File.dirname(file), "Gemfile")) ? gemfile : nil,
          prepare: data["prepare"]&.freeze
        ).freeze
      end
    end
  end
end
