# The contract a workload kind and the trials of its batches must keep, checked like rack's Lint: a
# kind's declarations (name, selector, keys, defaults, metrics, driver) and each trial's status, reason,
# metrics (every name in the catalogue, among the common metrics or the kind's own), items and
# artifacts (relative paths inside the batch's artifacts directory). Each check returns sentences, empty
# when the contract holds.
module KindLint
  STATUSES = [Rubyrig::Results::Trial::OK, Rubyrig::Results::Trial::OK_WITH_ERRORS, Rubyrig::Results::Trial::FAILED].freeze
  METRIC_KINDS = %i[speed resource memory].freeze

  module_function

  # The kind's own declarations.
  def kind_problems(kind)
    problems = []
    problems << "kind must be a lower-case name" unless kind.kind.to_s.match?(/\A[a-z][a-z-]*\z/)
    problems << "selector must be a string" unless kind.selector.is_a?(String)
    problems << "keys must be strings" unless kind.keys.is_a?(Array) && kind.keys.all?(String)
    problems << "default_params must map names to values" unless kind.default_params.is_a?(Hash) && kind.default_params.keys.all?(String)
    problems << "primary_metrics must be its own or common metrics" unless !kind.primary_metrics.empty? && (kind.primary_metrics - names(kind)).empty?
    kind.metrics.each do |m|
      problems << "metric #{m[:name]} needs a unit, a direction and a label" unless m[:unit].is_a?(String) && [true, false].include?(m[:higher_is_better]) && m[:label]
      problems << "metric #{m[:name]} has kind #{m[:kind].inspect}" unless METRIC_KINDS.include?(m[:kind])
      problems << "metric #{m[:name]} is a common metric too" if common.include?(m[:name])
    end
    problems << "driver must be built with a context and run" unless kind.driver.instance_method(:initialize).arity == 1 && kind.driver.method_defined?(:run)
    problems
  end

  # One trial (as trials.jsonl holds it) of a batch of `kind`; files: the entries of its artifacts directory.
  def trial_problems(kind, trial, files:)
    problems = []
    status = trial["status"]
    problems << "status #{status.inspect} is not one of #{STATUSES.join(", ")}" unless STATUSES.include?(status)
    failed = status == Rubyrig::Results::Trial::FAILED
    problems << "a failed batch must say why" if failed && trial["reason"].to_s.strip.empty?
    problems << "a measured batch has no reason, got #{trial["reason"].inspect}" if !failed && trial["reason"]
    problems.concat(metric_problems(kind, trial["metrics"], "metrics"))
    if !failed && (kind.primary_metrics & trial["metrics"].to_h.keys).empty?
      problems << "a measured batch reports none of its primary metrics #{kind.primary_metrics.join(", ")}"
    end
    Array(trial["items"]).each { |item| problems.concat(metric_problems(kind, item["metrics"], "item #{item["item"]}")) }
    problems.concat(artifact_problems(trial["artifacts"], files))
    %w[facts samples].each { |key| problems << "#{key} must be an object" unless trial[key].is_a?(Hash) }
    problems << "warnings must be sentences" unless trial["warnings"].is_a?(Array) && trial["warnings"].all?(String)
    problems
  end

  def metric_problems(kind, metrics, where)
    return ["#{where} must be an object"] unless metrics.is_a?(Hash)
    metrics.flat_map do |name, value|
      list = []
      list << "#{where}: #{name} is in the catalogue of no kind (#{kind.kind} or common)" unless names(kind).include?(name)
      list << "#{where}: #{name} is #{value.inspect}, not a finite number" unless value.is_a?(Numeric) && value.to_f.finite?
      list
    end
  end

  def artifact_problems(artifacts, files)
    return ["artifacts must be a list"] unless artifacts.is_a?(Array)
    artifacts.filter_map do |path|
      next "artifact #{path.inspect} is not a relative path inside the batch's directory" if !path.is_a?(String) || path.start_with?("/") || path.split("/").include?("..")
      "artifact #{path} is not in the batch's directory" unless files.include?(path.split("/").first)
    end
  end

  def common = Rubyrig::Metrics::COMMON.map { |m| m[:name] }

  def names(kind) = common + kind.metrics.map { |m| m[:name] }
end
