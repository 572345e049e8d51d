# The record of one executed batch: status, metrics, probe facts, samples, artifacts, the host it ran
# on (the block of the statistics when a run's batches come from several hosts), and the items measured
# apart inside it (benchmark-ips reports: each {"item", "metrics", "samples"}).
module Rubyrig
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
