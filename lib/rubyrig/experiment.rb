# An experiment: runtimes, baseline, workloads with parameter matrices, batches and seed. Built from a
# YAML file or from CLI shortcuts through the same validation (Experiment::Loader), which names the
# line and the fix.
module Rubyrig
  Experiment = Struct.new(:name, :description, :runtimes, :baseline, :workloads, :batches, :seed,
    :timeout_s, :cpus, :gvl, :trace, :profile, :decision, :inherit_env, :source, keyword_init: true)

  class Experiment
    DEFAULT_BATCHES = 5
    DEFAULT_TIMEOUT_S = 600
    # More batches per cell than any comparison needs; a larger number is a typo that would plan for ever.
    MAX_BATCHES = 10_000
    TRACES = %w[gvl].freeze
    PROFILERS = %w[stackprof vernier].freeze

    def self.load(path)
      from_source(YamlSource.load(path), base_dir: File.dirname(File.expand_path(path)))
    end

    def self.from_data(data, label: "command line", base_dir: Dir.pwd, flags: {})
      from_source(YamlSource.from_data(data, label, flags: flags), base_dir: base_dir)
    end

    def self.from_source(source, base_dir:)
      Loader.new(source, base_dir).experiment
    end

    def runtime(label) = runtimes.find { |r| r.label == label }

    # The same experiment with other workloads (those with the options a run recorded).
    def with_workloads(list) = dup.tap { |copy| copy.workloads = list.freeze }.freeze

    def to_h
      {
        name: name, description: description, runtimes: runtimes.map(&:to_h), baseline: baseline,
        workloads: workloads.map(&:to_h), batches: batches, seed: seed, timeout_s: timeout_s, cpus: cpus,
        gvl: gvl, trace: trace, profile: profile, inherit_env: inherit_env
      }
    end
  end
end
