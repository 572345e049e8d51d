# The files of a history, written so that no reader ever trusts half of one: the text goes to a new
# temporary file beside the target (held locked while it is written), is fsynced, and is hard-linked
# to the target's name, which fails when the name exists, so the first of two writers wins and the
# other sees it; the directory is fsynced after. Reading checks the format version and names the file.
require "json"
require "securerandom"

module Rubyrig
  module History
    module RunFile
      module_function

      # Writes text as target unless target exists; true when this call created it.
      def create(target, text)
        dir = File.dirname(target)
        temp = File.join(dir, "#{Store::TEMP_PREFIX}#{Process.pid}-#{SecureRandom.hex(6)}")
        File.open(temp, File::WRONLY | File::CREAT | File::EXCL, 0o644) do |f|
          f.flock(File::LOCK_EX)
          write_all(f, text)
          f.fsync
          return link(temp, target, dir)
        end
      ensure
        File.unlink(temp) if temp && File.exist?(temp)
      end

      def link(temp, target, dir)
        File.link(temp, target)
        sync_dir(dir)
        true
      rescue Errno::EEXIST # another writer created it first
        false
      end

      # Writes all of text unbuffered, so that a failure shows here and not when the file closes.
      def write_all(file, text)
        written = 0
        written += file.syswrite(text.byteslice(written..)) while written < text.bytesize
      end

      def sync_dir(dir)
        File.open(dir, File::RDONLY) { |d| d.fsync }
      end

      # A run record, checked; a damaged file or one of another format raises StoreError naming it.
      def read(file)
        record = parse(file)
        version = record["format_version"]
        unless version == RunRecord::FORMAT_VERSION
          raise StoreError, "#{file} is a run record of format #{version.inspect}, and this rubyrig #{VERSION} reads format " \
            "#{RunRecord::FORMAT_VERSION}; use a rubyrig that reads it, or move the file out of the history"
        end
        problem = problem(record)
        raise StoreError, damaged(file, problem) if problem
        record
      end

      def parse(file)
        data = JSON.parse(Processes::TextFile.read(file))
        data.is_a?(Hash) ? data : raise(StoreError, damaged(file, "not a JSON object"))
      rescue JSON::ParserError => e
        raise StoreError, damaged(file, "not valid JSON: #{e.message.lines.first.to_s.strip[0, 60]}")
      end

      # What keeps a parsed record from being read, or nil.
      def problem(record)
        return "no run_id" unless record["run_id"].is_a?(String)
        cells = record["cells"]
        return "cells is not a list" unless cells.is_a?(Array)
        wrong = cells.find { |c| !c.is_a?(Hash) || !c["values"].is_a?(Hash) || !c["params"].is_a?(Hash) || !c["values"].values.all?(Array) }
        return "a cell is not workload, params, runtime, host and values" if wrong
        "hosts, runtimes, workloads or metrics is not an object" unless %w[hosts runtimes workloads metrics].all? { |k| record[k].is_a?(Hash) }
      end

      def damaged(file, problem)
        "#{file} is damaged (#{problem}); every other run of the history is intact: move the file out of the history " \
          "and add its run again (`rubyrig history add HISTORY RUN_DIR`)"
      end

      # Removes temp when its writer is gone: older than older_than_s, and its lock free.
      def remove_if_abandoned(temp, older_than_s:)
        return unless Time.now - File.mtime(temp) > older_than_s
        File.open(temp, File::RDONLY) do |f|
          File.unlink(temp) if f.flock(File::LOCK_EX | File::LOCK_NB)
        end
      rescue Errno::ENOENT # its writer finished, or another cleaner came first
        nil
      end
    end
  end
end
