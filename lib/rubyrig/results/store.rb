# A run's results directory: run.json (metadata, experiment, plan), trials.jsonl (one fsynced line per
# finished batch) and artifacts/. A crash or a full disk leaves it readable and resumable; one rubyrig
# process writes it at a time.
require "json"
require "fileutils"

module Rubyrig
  module Results
    class Store
      RUN_FILE = "run.json"
      TRIALS_FILE = "trials.jsonl"
      LOCK_FILE = ".lock"
      # Below this much free space a batch could lose its files, so none is measured or recorded.
      MIN_FREE_BYTES = 1024 * 1024

      attr_reader :dir

      # Creates a new run directory and returns it locked; refuses one that another rubyrig process is
      # writing or that already holds a run. The lock comes first, so that of two rubyrig processes
      # started at once on one directory, one writes its run and the other refuses.
      # run: the RunMeta to write as run.json.
      def self.create(dir, run)
        FileUtils.mkdir_p(dir)
        store = new(dir)
        store.lock!
        begin
          if File.exist?(File.join(dir, RUN_FILE))
            raise StoreError, "#{dir} already holds a run: resume it with `rubyrig run --resume #{dir}` or choose another --results"
          end
          FileUtils.mkdir_p(File.join(dir, "artifacts"))
          store.write_meta(run)
        rescue StoreError, SystemCallError
          store.unlock
          raise
        end
        store
      rescue SystemCallError => e # unwritable location, or a full disk
        raise StoreError, "cannot create results directory #{dir}: #{e.message}; choose a writable --results"
      end

      # Opens an existing run directory for reading or resuming.
      def self.open(dir)
        unless File.file?(File.join(dir, RUN_FILE))
          raise StoreError, "#{dir} is not a rubyrig results directory (no #{RUN_FILE}); give the directory a run created"
        end
        new(dir)
      end

      # dir: made absolute, since the processes a batch starts (Puma) run in other directories.
      def initialize(dir)
        @dir = File.expand_path(dir)
      end

      # run.json as read (a Hash); `run` reads it typed.
      def meta
        Processes::TextFile.json(path(RUN_FILE))
      rescue JSON::ParserError => e
        raise StoreError, "#{path(RUN_FILE)} is damaged (#{e.message[0, 80]}); it cannot be reported or resumed"
      end

      # Replaces run.json atomically, so a crash or a full disk leaves the old or the new version, never
      # half of one.
      def run = RunMeta.new(meta)

      def write_meta(run)
        tmp = path("#{RUN_FILE}.tmp")
        File.open(tmp, "w") do |f|
          write_all(f, JSON.pretty_generate(run.to_h))
          f.fsync
        end
        File.rename(tmp, path(RUN_FILE))
      rescue SystemCallError => e # a full disk, or the directory went away
        FileUtils.rm_f(tmp)
        raise StoreError, "could not update #{path(RUN_FILE)}: #{cause(e)}; the trials so far are in #{path(TRIALS_FILE)}: " \
          "#{fix_hint(e)}"
      end

      # Yields the run's RunMeta and writes the one the block returns (made with RunMeta#with).
      def update_meta
        write_meta(yield(run))
      end

      # Appends one trial as a JSON line and fsyncs it before returning. A write that fails (a full disk,
      # an I/O error) is undone, so that the file holds every earlier trial and nothing of this one, and
      # raises StoreError naming the fix.
      def append(trial)
        line = JSON.generate(trial.to_h) + "\n"
        File.open(path(TRIALS_FILE), File::WRONLY | File::APPEND | File::CREAT, 0o644) do |f|
          size = f.size
          begin
            write_all(f, line)
            f.fsync
          rescue SystemCallError => e
            undo_append(f, size)
            raise StoreError, "could not write the trial of batch #{trial.batch_id} to #{path(TRIALS_FILE)}: #{cause(e)}; " \
              "every earlier trial is intact: #{fix_hint(e)}"
          end
        end
      end

      # Raises StoreError when the run's file system has less than MIN_FREE_BYTES left, saying what that
      # stopped (before a batch: measuring it; after: recording it, since its files may be cut short).
      def check_space!(stopped)
        free = Processes::Libc.free_bytes(@dir)
        return if free.nil? || free >= MIN_FREE_BYTES
        raise StoreError, "the file system of #{@dir} is full (#{free / 1024} KiB free, rubyrig needs #{MIN_FREE_BYTES / 1024 / 1024} MiB), " \
          "so #{stopped}; every trial so far is intact in #{path(TRIALS_FILE)}: free space, then continue with `rubyrig run --resume #{@dir}`"
      end

      # trials.jsonl read back: every trial, and one warning for each line that is not one, naming it as
      # file:line (a last line cut short by a crash, or a line damaged anywhere else).
      Reading = Struct.new(:trials, :skipped, keyword_init: true)

      def trials = read_trials.trials

      # Reads every line; a line that is not a trial is skipped with a warning, so its batch counts as not
      # run: a report leaves it out and `--resume` measures it again.
      def read_trials
        file = path(TRIALS_FILE)
        return Reading.new(trials: [], skipped: []) unless File.exist?(file)
        trials = []
        skipped = []
        Processes::TextFile.each_line(file).each_with_index do |line, index|
          trial, problem = parse_trial(line)
          if trial
            trials << trial
          else
            skipped << "#{file}:#{index + 1} #{problem}; skipped, so its batch counts as not run (`rubyrig run --resume` measures it again)"
          end
        end
        Reading.new(trials: trials.freeze, skipped: skipped.freeze)
      end

      # Drops a torn final line so that appends start on a fresh line. It only shortens the file, in one
      # truncate, so a crash at any moment leaves every complete line in place.
      def repair!
        file = path(TRIALS_FILE)
        return unless File.exist?(file)
        text = File.binread(file)
        return if text.empty? || text.end_with?("\n")
        File.truncate(file, (text.rindex("\n") || -1) + 1)
      end

      def artifacts_dir(batch_id) = path("artifacts", batch_id)

      # An empty directory for a batch's files. A batch measured again after a crash or Ctrl-C starts
      # over: the cut attempt's probe files and logs would otherwise be read as this attempt's.
      def prepare_artifacts_dir(batch_id)
        dir = artifacts_dir(batch_id)
        FileUtils.rm_rf(dir)
        FileUtils.mkdir_p(dir)
        dir
      rescue SystemCallError => e # a full disk, or the directory went away
        raise StoreError, "could not create #{dir} for batch #{batch_id}: #{cause(e)}; #{fix_hint(e)}"
      end

      # Takes an exclusive lock so two rubyrig processes never write the same run, and writes this
      # process's pid into the lock file, so that a second one can say which process holds it.
      def lock!
        return if @lock
        @lock = File.open(path(LOCK_FILE), File::RDWR | File::CREAT, 0o644)
        if @lock.flock(File::LOCK_EX | File::LOCK_NB)
          begin
            @lock.truncate(0)
            @lock.syswrite(Process.pid.to_s)
          rescue SystemCallError # a full disk: the lock holds all the same, only the pid is not shown
            nil
          end
          return
        end
        holder = @lock.read.to_s[/\A\d+\z/]
        @lock.close
        @lock = nil
        raise StoreError, "#{dir} is in use by another rubyrig process#{" (pid #{holder})" if holder}; wait for it to finish " \
          "or stop it, or give another --results"
      end

      def unlock
        @lock&.close
        @lock = nil
      end

      def path(*parts) = File.join(@dir, *parts)

      private

      # [trial, nil], or [nil, what is wrong with the line].
      def parse_trial(line)
        return [nil, "was cut short (rubyrig stopped while writing it)"] unless line.end_with?("\n")
        data = JSON.parse(line)
        problem = Trial.problem(data)
        problem ? [nil, "is not a trial record (#{problem})"] : [Trial.from_h(data), nil]
      rescue JSON::ParserError => e # a line damaged on disk or by hand; the other lines stand
        [nil, "is not valid JSON (#{e.message.lines.first.to_s.strip[0, 80]})"]
      end

      # Writes all of text unbuffered (a buffered write could fail again later, when the file closes).
      def write_all(file, text)
        written = 0
        written += file.syswrite(text.byteslice(written..)) while written < text.bytesize
      end

      # Cuts the file back to its size before a failed append; a torn line left if even that fails is
      # dropped by repair! when the run resumes.
      def undo_append(file, size)
        file.truncate(size)
      rescue SystemCallError # the disk refuses even that; resume repairs the file
        nil
      end

      # The system's words without Ruby's " @ function - path" (the message names the file already).
      def cause(error) = error.message.sub(/ @ \w+ - .*\z/m, "")

      def fix_hint(error)
        what = (error.is_a?(Errno::ENOSPC) || error.is_a?(Errno::EDQUOT)) ? "free space" : "fix the disk"
        "#{what}, then continue with `rubyrig run --resume #{@dir}`"
      end
    end
  end
end
