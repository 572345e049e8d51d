# A ruby-bench checkout's list of benchmarks and their categories, read from its benchmarks.yml as
# ruby-bench's run_benchmarks.rb reads it: a benchmark's category is its `category:` (else "other"),
# plus "ractor" when it is marked `ractor:` or `ractor_only:`; "all" is every benchmark but those that
# only run under ruby-bench's Ractor harness. A `bench` value may name a benchmark, a category or "all".
require "yaml"

module Rubyrig
  module Kinds
    module Script
      module Suite
        METADATA_FILE = "benchmarks.yml"
        ALL = "all"
        OTHER = "other"
        RACTOR = "ractor"

        module_function

        # name => its entry in benchmarks.yml ({} when the checkout has no such file).
        def metadata(root)
          path = File.join(root, METADATA_FILE)
          return {} unless File.file?(path)
          data = YAML.safe_load(Processes::TextFile.read(path)) || {}
          raise ExperimentError, "#{path} is not a mapping of benchmark names; is this a ruby-bench checkout?" unless data.is_a?(Hash)
          data.transform_values { |v| v.is_a?(Hash) ? v : {} }
        rescue Psych::SyntaxError => e
          raise ExperimentError, "#{path} is not valid YAML (#{e.message}); fix it or pass benchmark names with --param bench=NAME,..."
        end

        # The categories of one benchmark: its own and "ractor" when it may run in Ractors.
        def categories(entry)
          list = [entry.fetch("category", OTHER).to_s]
          list << RACTOR if entry["ractor"] || entry["ractor_only"]
          list.uniq
        end

        # The category a report groups a benchmark under: its own (ractor-only ones under "ractor").
        def category(entry) = entry["ractor_only"] ? RACTOR : entry.fetch("category", OTHER).to_s

        # Every category the checkout names, "all" included.
        def category_names(root) = ([ALL] + metadata(root).values.flat_map { |e| categories(e) }).uniq

        # The benchmarks a list of `bench` values names, in the checkout's order, each once: a name
        # stays itself; a category stands for its benchmarks; "all" for all but the Ractor-harness ones.
        # nil when a value names neither (the caller says which).
        def expand(root, values)
          names = Form.suite_names(root).keys
          meta = metadata(root)
          values.flat_map do |value|
            value = value.to_s
            next [value] if names.include?(value)
            chosen = names.select { |name| in_category?(meta.fetch(name, {}), value) }
            chosen.empty? ? [value] : chosen
          end.uniq
        end

        def in_category?(entry, value)
          return !ractor_harness_only?(entry) if value == ALL
          categories(entry).include?(value)
        end

        # Benchmarks ruby-bench runs only with its Ractor harness (not among "all").
        def ractor_harness_only?(entry)
          !!entry["ractor_only"] || (entry["ractor"] && entry["default_harness"] == "harness-ractor")
        end

        # name => category for the benchmarks of a run (what the report groups by).
        def categories_of(root, names)
          meta = metadata(root)
          names.to_h { |name| [name.to_s, category(meta.fetch(name.to_s, {}))] }
        end
      end
    end
  end
end
