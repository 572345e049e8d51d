# Writes finished results directories through Results::Store, as a run would, for history tests: one
# workload (builtin:nbody, steps=100), the runtimes and hosts given, and each batch's iterations_per_s.
module HistoryRuns
  Interp = Struct.new(:description, :fingerprint, :version, keyword_init: true)

  SYSTEM = Interp.new(description: "ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux-gnu]", fingerprint: "aaaa000011112222", version: "3.1.2")
  BUILT = Interp.new(description: "ruby 3.3.8 (2025-04-09 revision b200bad6cd) [x86_64-linux]", fingerprint: "bbbb000011112222", version: "3.3.8")

  # values: runtime label => [iterations_per_s per batch]; interpreters: label => Interp; verified:
  # label => the description the probe saw (default: the interpreter's). Returns the directory.
  def write_history_run(dir, created_at:, values:, interpreters: {}, host: "alpha", verified: {}, revision: nil,
    finished: true, failed: {})
    labels = values.keys
    cells = labels.each_with_index.map { |label, i| {"index" => i, "runtime" => label, "workload" => "builtin:nbody", "params" => {"steps" => 100}} }
    order = cells.flat_map { |c| values.fetch(c["runtime"]).each_index.map { |b| {"id" => "c#{c["index"]}-b#{b + 1}", "cell" => c["index"], "number" => b + 1, "round" => b + 1} } }
    meta = Rubyrig::Results::RunMeta.build(format_version: Rubyrig::RESULTS_FORMAT_VERSION, rubyrig_version: Rubyrig::VERSION,
      name: "nightly", created_at: created_at, command: "run", command_line: %w[rubyrig run nightly.yml],
      experiment: {"name" => "nightly", "seed" => 1}, experiment_digest: "sha256:0", plan: {"seed" => 1, "cells" => cells, "order" => order},
      runtimes: labels.to_h { |l| [l, runtime_entry(l, interpreters.fetch(l) { SYSTEM })] },
      workloads: {"builtin:nbody" => {"kind" => "script", "primary_metrics" => %w[iterations_per_s run_s], "revision" => revision}},
      metrics: Rubyrig::Metrics.current.to_record,
      host: {"hostname" => host, "cpu_model" => "Test CPU", "cores" => 2, "fingerprint" => "fp-#{host}", "host_id" => host})
    store = Rubyrig::Results::Store.create(dir, meta)
    order.each { |b| store.append(history_trial(cells[b["cell"]], b, values, interpreters, verified, failed)) }
    store.update_meta { |run| run.with(finished_at: created_at.sub(/Z\z/, ".9Z")) } if finished
    store.unlock
    dir
  end

  def runtime_entry(label, interp)
    {"spec" => label, "interpreter" => {"name" => label, "engine" => "ruby", "version" => interp.version, "ruby_version" => interp.version,
                                        "description" => interp.description, "fingerprint" => interp.fingerprint},
     "ruby_flags" => label.include?("yjit") ? ["--yjit"] : [], "env" => {}}
  end

  def history_trial(cell, batch, values, interpreters, verified, failed)
    label = cell["runtime"]
    description = verified.fetch(label) { interpreters.fetch(label) { SYSTEM }.description }
    status = failed.fetch(batch["id"], "ok")
    Rubyrig::Results::Trial.new(batch_id: batch["id"], cell_key: "#{label} | builtin:nbody | steps=100", runtime: label,
      workload: "builtin:nbody", params: cell["params"], batch: batch["number"], round: batch["round"], status: status,
      reason: (status == "ok") ? nil : "exited with status 1", started_at: "2026-11-28T10:00:00Z",
      metrics: {"iterations_per_s" => values.fetch(label)[batch["number"] - 1], "wall_s" => 1.0 / values.fetch(label)[batch["number"] - 1]},
      facts: {"description" => description, "engine" => "ruby"}, warnings: [])
  end
end
