# Merges the results directories of a sharded run into one run: checks that every shard ran the same
# experiment (digest, plan cells) on the same interpreters (description and build fingerprint per
# runtime label), then writes run.json (the shards, their hosts, the missing ones), every shard's trials
# unchanged and their artifacts. A shard that failed or never ran leaves a warning naming it, or an
# error with require_all.
require "fileutils"
require "json"
require "time"

module Rubyrig
  module Results
    class Merge
      # What a merge wrote, and what the reader should know about it.
      Result = Struct.new(:store, :warnings, keyword_init: true)

      # One shard's results directory as found.
      Part = Struct.new(:dir, :store, :run, keyword_init: true) do
        def index = run.shard.index

        def label = "shard #{index}/#{run.shard.count} (#{dir})"
      end

      # paths: shard directories, or directories that hold shard directories (e.g. downloaded artifacts).
      def initialize(paths, require_all: false)
        @paths = paths
        @require_all = require_all
        @warnings = []
      end

      def write(out, command_line:)
        parts = find_parts
        raise MergeError, "no shard results found in #{@paths.join(", ")}; give the directories `rubyrig run --shard` wrote" if parts.empty?
        reference = parts.min_by(&:index)
        parts.each { |part| check_same!(reference, part) }
        check_indices!(parts)
        incomplete!(parts)
        parts = parts.sort_by(&:index)
        store = Store.create(out, merged_meta(parts, command_line))
        begin
          copy_trials(parts, store)
        ensure
          store.unlock
        end
        Result.new(store: store, warnings: @warnings.freeze)
      end

      private

      def find_parts
        @paths.flat_map do |path|
          raise MergeError, "#{path} does not exist; give the shard results directories" unless File.exist?(path)
          dirs = if File.file?(File.join(path, Store::RUN_FILE))
            [path]
          elsif File.directory?(path)
            Dir.children(path).sort.map { |c| File.join(path, c) }.select { |d| File.file?(File.join(d, Store::RUN_FILE)) }
          else
            []
          end
          @warnings << "#{path} holds no run (no #{Store::RUN_FILE}); skipped" if dirs.empty?
          dirs.map { |dir| part(dir) }
        end
      end

      def part(dir)
        store = Store.open(dir)
        run = store.run
        raise MergeError, "#{dir} is already a merged run; give the shard directories it was merged from" if run.merged?
        raise MergeError, "#{dir} is not a shard (run.json has no shard); run each shard with `rubyrig run EXP.yml --shard K/N`" unless run.shard
        Part.new(dir: dir, store: store, run: run)
      end

      def check_same!(reference, part)
        return if part.equal?(reference)
        if part.run.experiment_digest != reference.run.experiment_digest
          raise MergeError, "#{part.label} ran a different experiment than #{reference.label} (digest #{short(part.run.experiment_digest)} " \
            "against #{short(reference.run.experiment_digest)}); merge only shards of one experiment file, seed and workload files"
        end
        if part.run.shard.count != reference.run.shard.count
          raise MergeError, "#{part.label} is one of #{part.run.shard.count} shards, #{reference.label} one of #{reference.run.shard.count}; " \
            "run every shard with the same count"
        end
        if part.run.plan.cells != reference.run.plan.cells
          raise MergeError, "#{part.label} planned other cells than #{reference.label}; both must be run by the same rubyrig version"
        end
        check_interpreters!(reference, part)
        if part.run.rubyrig_version != reference.run.rubyrig_version
          @warnings << "#{part.label} was run by rubyrig #{part.run.rubyrig_version}, #{reference.label} by #{reference.run.rubyrig_version}"
        end
      end

      def check_interpreters!(reference, part)
        reference.run.runtime_labels.each do |label|
          mine = part.run.interpreter(label)
          theirs = reference.run.interpreter(label)
          next if RunMeta.same_interpreter?(theirs, mine, path: false)
          raise MergeError, "runtime '#{label}' is #{mine["description"]} (build #{mine["fingerprint"]}) in #{part.label} but " \
            "#{theirs["description"]} (build #{theirs["fingerprint"]}) in #{reference.label}; every shard must run the same interpreters"
        end
      end

      def check_indices!(parts)
        parts.group_by(&:index).each do |index, same|
          next if same.size == 1
          raise MergeError, "shard #{index} appears #{same.size} times (#{same.map(&:dir).join(", ")}); give each shard once"
        end
      end

      # Missing and unfinished shards: a warning each, or an error with require_all.
      def incomplete!(parts)
        count = parts.first.run.shard.count
        missing = (1..count).to_a - parts.map(&:index)
        problems = []
        unless missing.empty?
          problems << "#{(missing.size == 1) ? "shard" : "shards"} #{missing.join(", ")} of #{count} #{(missing.size == 1) ? "is" : "are"} missing; " \
            "the merge has #{parts.size} of #{count} shards"
        end
        parts.each do |part|
          next if part.run.finished_at
          planned = part.run.batch_count
          problems << "#{part.label} did not finish: #{part.store.trials.size} of #{planned} batches"
        end
        return @missing = missing if problems.empty?
        raise MergeError, "#{problems.join("; ")} (--require-all)" if @require_all
        @warnings.concat(problems)
        @missing = missing
      end

      def merged_meta(parts, command_line)
        reference = parts.first.run
        reference.except(:shard, :host, :host_after, :interrupted_at, :resumed_at, :finished_at).with(
          created_at: Time.now.utc.iso8601(6), finished_at: parts.filter_map { |p| p.run.finished_at }.max,
          command: "merge", command_line: command_line,
          plan: {"seed" => reference.shard.run_seed, "cells" => reference.plan.cells.map(&:to_h),
                 "order" => parts.flat_map { |p| p.run.plan.batches.map(&:to_h) }},
          hosts: parts.to_h { |p| [p.run.host_id, p.run.host] },
          shard_count: reference.shard.count, shards: parts.map { |part| merged_shard(part) }, missing_shards: @missing
        )
      end

      def merged_shard(part)
        run = part.run
        RunMeta::MergedShard.new(index: part.index, count: run.shard.count, seed: run.shard.seed, host_id: run.host_id,
          dir: File.expand_path(part.dir), created_at: run.created_at, finished_at: run.finished_at,
          planned_batches: run.batch_count, trials: part.store.trials.size, rubyrig_version: run.rubyrig_version,
          interpreter_paths: run.interpreter_paths).to_record
      end

      # Every trial line as its shard wrote it (fsynced once at the end), and each batch's artifacts.
      def copy_trials(parts, store)
        File.open(store.path(Store::TRIALS_FILE), "w") do |f|
          parts.each do |part|
            reading = part.store.read_trials
            @warnings.concat(reading.skipped)
            reading.trials.each do |trial|
              f.write(JSON.generate(trial.to_h) + "\n")
              source = part.store.artifacts_dir(trial.batch_id)
              FileUtils.cp_r(source, store.path("artifacts")) if File.directory?(source)
            end
          end
          f.fsync
        end
      end

      def short(digest) = digest.to_s.delete_prefix("sha256:")[0, 12]
    end
  end
end
