# A run's results directory: run.json (metadata, experiment, plan), trials.jsonl (one fsynced line per
# finished batch) and artifacts/. A crash leaves it readable and resumable.
require "json"
require "fileutils"

module Rubyrig
  class Store
    RUN_FILE = "run.json"
    TRIALS_FILE = "trials.jsonl"
    LOCK_FILE = ".lock"

    attr_reader :dir

    # Creates a new run directory; refuses one that already holds a run.
    def self.create(dir, meta)
      if File.exist?(File.join(dir, RUN_FILE))
        raise StoreError, "#{dir} already holds a run: resume it with `rubyrig run --resume #{dir}` or choose another --results"
      end
      FileUtils.mkdir_p(File.join(dir, "artifacts"))
      store = new(dir)
      store.write_meta(meta)
      store
    rescue SystemCallError => e # unwritable location
      raise StoreError, "cannot create results directory #{dir}: #{e.message}; choose a writable --results"
    end

    # Opens an existing run directory for reading or resuming.
    def self.open(dir)
      unless File.file?(File.join(dir, RUN_FILE))
        raise StoreError, "#{dir} is not a rubyrig results directory (no #{RUN_FILE}); give the directory a run created"
      end
      new(dir)
    end

    def initialize(dir)
      @dir = dir
    end

    def meta
      TextFile.json(path(RUN_FILE))
    rescue JSON::ParserError => e
      raise StoreError, "#{path(RUN_FILE)} is damaged (#{e.message[0, 80]}); it cannot be reported or resumed"
    end

    # Replaces run.json atomically, so a crash leaves the old or the new version, never half of one.
    def write_meta(meta)
      tmp = path("#{RUN_FILE}.tmp")
      File.open(tmp, "w") do |f|
        f.write(JSON.pretty_generate(meta))
        f.fsync
      end
      File.rename(tmp, path(RUN_FILE))
    end

    def update_meta
      current = meta
      write_meta(yield(current))
    end

    # Appends one trial as a JSON line and fsyncs it before returning.
    def append(trial)
      File.open(path(TRIALS_FILE), "a") do |f|
        f.write(JSON.generate(trial.to_h) + "\n")
        f.flush
        f.fsync
      end
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
      TextFile.each_line(file).each_with_index do |line, index|
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
    end

    # Takes an exclusive lock so two rubyrig processes never write the same run.
    def lock!
      @lock = File.open(path(LOCK_FILE), File::RDWR | File::CREAT, 0o644)
      return if @lock.flock(File::LOCK_EX | File::LOCK_NB)
      raise StoreError, "#{dir} is in use by another rubyrig process; wait for it or stop it first"
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
  end
end
