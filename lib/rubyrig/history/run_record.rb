# What a history keeps of one finished run (the record a run file holds, see docs/history-format.md):
# the run's identity, its hosts, runtimes (with the interpreter the probe verified), workloads (with
# the revision of their code), the metric definitions it recorded, and per cell and host the values of
# every ok measured batch. Read from the results directory only, never from today's code.
require "digest"
require "json"
require "time"

module Rubyrig
  module History
    module RunRecord
      FORMAT_VERSION = 1
      # A benchmark-ips item is a cell of its own: the batch's parameters plus this one.
      ITEM_PARAM = "item"

      module_function

      # The record of the finished run in dir; a run that has not finished is refused, since adding
      # it would record a smaller sample than the run will have.
      def from_results(dir)
        store = Results::Store.open(dir)
        run = store.run
        unless run.finished_at
          raise StoreError, "#{dir} has not finished (no finished_at in run.json); complete it with `rubyrig run --resume #{dir}`, then add it"
        end
        trials = store.read_trials.trials.select { |t| t.ok? && t.measured? }.sort_by { |t| [t.batch.to_i, t.batch_id] }
        cells = cells(run, trials)
        {"format_version" => FORMAT_VERSION, "run_id" => run_id(run), "added_at" => Time.now.utc.iso8601,
         "run" => run_facts(run, dir), "hosts" => hosts(run), "runtimes" => runtimes(run),
         "workloads" => workloads(run), "metrics" => metrics(run, cells), "cells" => cells}
      end

      # The same run gives the same id wherever its directory is copied or moved to.
      def run_id(run)
        identity = [run.name, run.created_at, run.experiment_digest, run.seed, run.hosts.keys.sort, run.shard&.index]
        Digest::SHA256.hexdigest(JSON.generate(identity))[0, 16]
      end

      def run_facts(run, dir)
        {"name" => run.name, "dir" => File.expand_path(dir), "created_at" => run.created_at, "finished_at" => run.finished_at,
         "command" => run.command, "rubyrig_version" => run.rubyrig_version, "results_format_version" => run.format_version,
         "experiment_digest" => run.experiment_digest, "seed" => run.seed}
      end

      # host id => the facts that tell hosts apart, and when the run (a merged run: that host's shard) started.
      def hosts(run)
        started = run.shards.to_h { |s| [s.host_id, s.created_at] }
        run.hosts.to_h do |id, facts|
          [id, facts.slice("fingerprint", "hostname", "cpu_model", "cores", "kernel")
            .merge("started_at" => started[id] || run.created_at)]
        end
      end

      def runtimes(run)
        run.runtime_labels.to_h do |label|
          entry = run.runtime(label)
          interpreter = run.interpreter(label)
          [label, {"spec" => entry.spec, "ruby_flags" => entry.ruby_flags || [], "env" => entry.env || {},
                   "engine" => interpreter["engine"], "version" => interpreter["version"], "ruby_version" => interpreter["ruby_version"],
                   "description" => interpreter["description"], "revision" => interpreter["description"].to_s[/revision ([0-9a-f]+)/, 1],
                   "build" => build(interpreter)}]
        end
      end

      # The interpreter's fingerprint, and the digest of its files when the run recorded one.
      def build(interpreter) = [interpreter["fingerprint"], interpreter["build_digest"]].compact.join(":").then { |b| b.empty? ? nil : b }

      def workloads(run)
        run.workload_names.to_h do |name|
          workload = run.workload(name)
          [name, {"kind" => workload.kind, "primary_metrics" => workload.primary_metrics, "revision" => workload.revision}]
        end
      end

      # The definition of every metric some cell has values of, as the run recorded it.
      def metrics(run, cells)
        names = cells.flat_map { |c| c["values"].keys }.uniq.sort
        names.to_h do |name|
          d = run.metrics.fetch(name)
          [name, {"unit" => d.unit, "higher_is_better" => d.higher_is_better, "kind" => d.kind.to_s, "label" => d.label}]
        end
      end

      # Per workload, parameters, runtime and host: the verified interpreter and each metric's values.
      def cells(run, trials)
        groups = trials.flat_map { |t| [[t, t.params || {}, t.metrics]] + items(t) }
          .group_by { |t, params, _| [t.workload, params, t.runtime, t.host_id || run.host_id] }
        groups.map do |(workload, params, runtime, host), rows|
          {"workload" => workload, "params" => params, "runtime" => runtime, "host" => host,
           "interpreter" => Verified.interpreter(rows.map(&:first).uniq, run.interpreter(runtime)),
           "values" => values(rows.map(&:last))}
        end
      end

      def items(trial)
        trial.items.to_a.map { |item| [trial, (trial.params || {}).merge(ITEM_PARAM => item["item"]), item["metrics"] || {}] }
      end

      # metric => the finite numbers of the batches that measured it, in batch order.
      def values(metric_sets)
        metric_sets.each_with_object({}) do |metrics, acc|
          metrics.each do |name, value|
            next unless value.is_a?(Numeric) && value.to_f.finite?
            (acc[name] ||= []) << value.to_f
          end
        end
      end
    end
  end
end
