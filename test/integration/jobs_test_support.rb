# What the jobs integration tests share: running an experiment through the CLI, reading its trials,
# and finding any process of the run (redis-server, Sidekiq workers, stubs) still alive afterwards.
require "psych"

module JobsTestSupport
  # Writes the experiment, runs it and returns [exit status, stderr, trials as hashes, results dir].
  def run_experiment(experiment)
    dir = tmpdir
    path = write(dir, "experiment.yml", Psych.dump(experiment))
    results = File.join(dir, "results")
    status, _out, err = run_cli("run", path, "--results", results)
    [status, err, read_trials(results), results]
  end

  def read_trials(results)
    File.readlines(File.join(results, "trials.jsonl")).map { |line| JSON.parse(line) }
  end

  # Pids of the run that are still alive: the redis-servers and workers its artifacts name, and any
  # process whose command line or environment mentions the results directory.
  def survivors(results)
    pids = Dir.glob(File.join(results, "artifacts", "*", "redis.pid")).map { |f| Rubyrig::Processes::TextFile.read(f).to_i }
    pids += Dir.glob(File.join(results, "artifacts", "*", "control", "ready-*")).map { |f| f[/ready-(\d+)/, 1].to_i }
    pids += Dir.glob("/proc/[0-9]*").filter_map do |proc_dir|
      text = %w[cmdline environ].map { |f| File.binread(File.join(proc_dir, f)) rescue "" }.join # rubocop:disable Style/RescueModifier -- processes vanish while we read
      File.basename(proc_dir).to_i if text.include?(results)
    end
    pids.uniq.select { |pid| alive?(pid) }
  end

  def alive?(pid)
    Process.kill(0, pid)
    !File.binread("/proc/#{pid}/stat").split(") ").last.start_with?("Z")
  rescue Errno::ESRCH, Errno::ENOENT # gone
    false
  end

  # The monotonic times an artifacts directory records around the gate: enqueue end, readiness, gate.
  def gate_times(artifacts)
    probe = Dir.glob(File.join(artifacts, "enqueue", "probe", "probe-*.json")).map { |f| Rubyrig::Processes::TextFile.json(f) }
    enqueued = probe.filter_map { |p| p.dig("jobs_enqueue", "finished_at") }.first
    ready = Dir.glob(File.join(artifacts, "control", "ready-*")).map { |f| Float(Rubyrig::Processes::TextFile.read(f)) }
    go = Float(Rubyrig::Processes::TextFile.read(File.join(artifacts, "control", "go")))
    starts = Dir.glob(File.join(artifacts, "records", "*.tsv")).flat_map do |f|
      File.readlines(f).map { |line| Integer(line.split("\t")[3]) / 1e9 }
    end
    {enqueued: enqueued, ready: ready, go: go, first_start: starts.min}
  end
end
