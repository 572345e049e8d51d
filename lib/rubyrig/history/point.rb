# One run's sample of one series: the values of its ok measured batches, and what the run ran on
# (interpreter as the probe saw it, its build, the host) and when, with the workload code's revision.
module Rubyrig
  module History
    # run_id: the run's id in the history; started_at: when the run (or, in a merged run, this host's
    # shard) started, ISO 8601 UTC; host: the host's fingerprint (cpu model, cores, hostname), host_id
    # its name; interpreter: RUBY_DESCRIPTION as the probe read it inside the measured processes, with
    # the allocator it does not show (+jemalloc); build: the interpreter's fingerprint (its path,
    # description and configure arguments) and, when recorded, a digest of its executable; version:
    # the engine's version ("3.3.8", JRuby's "9.4.8.0"); revision: the commit of the workload's code
    # (nil outside git), dirty: whether its work tree had changes (nil when unknown); values: one Float
    # per ok measured batch, in batch order.
    Point = Struct.new(:run_id, :started_at, :host, :host_id, :interpreter, :build, :version, :revision, :dirty,
      :values, keyword_init: true)
  end
end
