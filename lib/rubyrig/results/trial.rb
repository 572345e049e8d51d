# The record of one executed batch: status, metrics, probe facts, samples, artifacts, the host it ran
# on (the block of the statistics when a run's batches come from several hosts), and the items measured
# apart inside it (benchmark-ips reports: each {"item", "metrics", "samples"}).
module Rubyrig
  module Results
    Trial = Struct.new(
      :batch_id, :cell_key, :runtime, :workload, :params, :batch, :round, :diagnostic,
      :status, :reason, :started_at, :finished_at, :duration_s,
      :metrics, :facts, :samples, :artifacts, :warnings, :host_id, :items,
      keyword_init: true
    )

    class Trial
      OK = "ok"
      # Measured, but the workload reported errors below its threshold (HTTP errors, raising jobs).
      OK_WITH_ERRORS = "ok_with_errors"
      FAILED = "failed"
      OK_STATUSES = [OK, OK_WITH_ERRORS].freeze
      # The type of each field a trial line may hold; the first six are required.
      FIELDS = {
        "batch_id" => String, "cell_key" => String, "runtime" => String, "workload" => String, "status" => String,
        "metrics" => Hash, "params" => Hash, "batch" => Integer, "round" => Integer, "diagnostic" => String,
        "reason" => String, "started_at" => String, "finished_at" => String, "duration_s" => Numeric, "facts" => Hash,
        "samples" => Hash, "artifacts" => Array, "warnings" => Array, "host_id" => String
      }.freeze
      REQUIRED = FIELDS.keys.first(6).freeze

      # What keeps parsed JSON from being a trial (a missing field, a field of the wrong type, a metric
      # that is not a number), or nil when it is one.
      def self.problem(data)
        return "#{json_type(data)} instead of an object" unless data.is_a?(Hash)
        missing = REQUIRED.select { |key| data[key].nil? }
        return "no #{missing.join(", ")}" unless missing.empty?
        wrong = FIELDS.find { |key, type| !data[key].nil? && !data[key].is_a?(type) }
        return "#{wrong[0]} is #{json_type(data[wrong[0]])} instead of #{json_type(wrong[1])}" if wrong
        return "batch_id #{data["batch_id"].inspect[0, 40]} is not a batch id" unless data["batch_id"].match?(Experiment::Plan::ID_PATTERN)
        metric = data["metrics"].find { |_, value| !value.nil? && !value.is_a?(Numeric) }
        return "metric #{metric[0]} is not a number" if metric
        "a warning or artifact is not a string" unless data.values_at("warnings", "artifacts").compact.flatten.all?(String)
      end

      # "a string", "a list", ... for a JSON value or a class.
      def self.json_type(value)
        type = value.is_a?(Class) ? value : value.class
        if type <= Hash then "an object"
        elsif type <= Array then "a list"
        elsif type <= String then "a string"
        elsif type <= Integer then "an integer"
        elsif type <= Numeric then "a number"
        elsif [TrueClass, FalseClass].include?(type) then "a boolean"
        else "null"
        end
      end

      def self.from_h(hash)
        h = hash.transform_keys(&:to_sym)
        new(**members.to_h { |m| [m, h[m]] }).freeze
      end

      def ok? = OK_STATUSES.include?(status)

      def failed? = !ok?

      # Measured batches count in statistics; trace and profile batches only supply artifacts.
      def measured? = diagnostic.nil?

      def to_h = super.compact
    end
  end
end
