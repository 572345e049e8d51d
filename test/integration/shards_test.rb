require "test_helper"

# Two shards of one experiment run as separate rubyrig processes on this machine, under different host
# ids, and `rubyrig merge` gives one run that holds their trials batch for batch and compares within
# each host; a shard of another experiment, or one whose runtime is another interpreter, is refused.
class ShardsTest < Minitest::Test
  include SlowTest

  EXPERIMENT = <<~YAML
    name: shards
    runtimes: [{spec: system, label: a}, {spec: system, label: b}]
    workloads:
      - builtin: nbody
        params: {steps: %<steps>d}
        iterations: 2
        warmup: 1
    batches: 4
    seed: 21
  YAML

  def experiment(dir, steps: 200)
    write(dir, "exp-#{steps}.yml", format(EXPERIMENT, steps: steps))
  end

  # Starts one shard as its own rubyrig process; returns [pid, results dir].
  def start_shard(dir, file, shard, host, env: {})
    results = File.join(dir, "shard-#{shard.tr("/", "-")}-#{host}")
    log = FileUtils.mkdir_p(File.join(dir, "log-#{host}-#{shard.tr("/", "-")}")).first
    pid = spawn_rubyrig("run", file, "--shard", shard, "--host-id", host, "--results", results, dir: log, env: env)
    [pid, results, log]
  end

  def finish(pid, log)
    Process.wait(pid)
    assert $?.success?, Rubyrig::Processes::TextFile.read(File.join(log, "rubyrig.err"))
  end

  def test_two_shards_merge_batch_for_batch_and_compare_within_each_host
    dir = tmpdir
    file = experiment(dir)
    one = start_shard(dir, file, "1/2", "host-a")
    # The second shard finds its index the way a GitLab parallel job does; its host id comes from the
    # environment, as in a container.
    two_results = File.join(dir, "shard-2")
    two_log = FileUtils.mkdir_p(File.join(dir, "log-2")).first
    two = spawn_rubyrig("run", file, "--shard", "auto", "--results", two_results, dir: two_log,
      env: {"CI_NODE_INDEX" => "2", "CI_NODE_TOTAL" => "2", "RUBYRIG_HOST_ID" => "host-b"})
    finish(one[0], one[2])
    finish(two, two_log)

    merged = File.join(dir, "merged")
    status, out, err = run_cli("merge", one[1], two_results, "--results", merged)
    assert_equal 0, status, err
    assert_empty err

    shard_trials = [one[1], two_results].flat_map { |d| trial_lines(d) }
    merged_trials = trial_lines(merged)
    assert_equal 8, merged_trials.size, "2 cells x 4 batches"
    assert_equal shard_trials.sort_by { |t| t["batch_id"] }, merged_trials.sort_by { |t| t["batch_id"] }
    assert_equal %w[c0-b1 c0-b2 c0-b3 c0-b4 c1-b1 c1-b2 c1-b3 c1-b4], merged_trials.map { |t| t["batch_id"] }.sort
    assert_equal({"host-a" => 4, "host-b" => 4}, merged_trials.map { |t| t["host_id"] }.tally)

    metas = [one[1], two_results].map { |d| Rubyrig::Processes::TextFile.json(File.join(d, "run.json")) }
    assert_equal 1, metas.map { |m| m["experiment_digest"] }.uniq.size
    assert_equal [21], metas.map { |m| m.dig("shard", "run_seed") }.uniq
    refute_equal metas[0].dig("plan", "seed"), metas[1].dig("plan", "seed"), "each shard has its own seed"
    meta = Rubyrig::Processes::TextFile.json(File.join(merged, "run.json"))
    assert_equal "merge", meta["command"]
    assert_equal %w[host-a host-b], meta["hosts"].keys.sort
    assert_equal [1, 2], meta["shards"].map { |s| s["index"] }
    assert_empty meta["missing_shards"]

    summary = Rubyrig::Processes::TextFile.json(File.join(merged, "summary.json"))
    speed = summary["comparisons"].find { |c| c["metric"] == "iterations_per_s" }
    assert_equal %w[host-a host-b], speed["hosts"].map { |h| h["host"] }
    assert_equal [2, 2], speed["hosts"].map { |h| h["n"] }
    assert_match(/within each of 2 hosts, combined/, speed["method_name"])
    assert_kind_of Float, speed.dig("heterogeneity", "p_value")
    assert_match(/b by host: host-a .* · host-b .*; hosts (agree|disagree)/, out)

    status, again, = run_cli("report", merged)
    assert_equal 0, status
    assert_includes again, "b by host: host-a"
  end

  def test_a_missing_shard_is_a_warning_and_an_error_with_require_all
    dir = tmpdir
    pid, results, log = start_shard(dir, experiment(dir), "2/2", "host-b")
    finish(pid, log)
    status, _, err = run_cli("merge", dir, "--results", File.join(dir, "merged"))
    assert_equal 0, status, err
    assert_includes err, "rubyrig: warning: shard 1 of 2 is missing; the merge has 1 of 2 shards"
    assert_includes Rubyrig::Processes::TextFile.json(File.join(dir, "merged", "summary.json"))["warnings"].join("\n"), "shard 1 of 2 is missing"
    status, _, err = run_cli("merge", results, "--require-all", "--results", File.join(dir, "strict"))
    assert_equal 1, status
    assert_equal ["rubyrig: error: shard 1 of 2 is missing; the merge has 1 of 2 shards (--require-all)\n"], err.lines
    refute File.exist?(File.join(dir, "strict", "run.json"))
  end

  def test_a_shard_of_another_experiment_is_refused
    dir = tmpdir
    one = start_shard(dir, experiment(dir), "1/2", "host-a")
    other = start_shard(dir, experiment(dir, steps: 250), "2/2", "host-b")
    finish(one[0], one[2])
    finish(other[0], other[2])
    status, _, err = run_cli("merge", one[1], other[1], "--results", File.join(dir, "merged"))
    assert_equal 1, status
    assert_equal 1, err.lines.size
    assert_match(/rubyrig: error: shard 2\/2 .* ran a different experiment than shard 1\/2 .*digest/, err)
  end

  def test_a_shard_whose_runtime_is_another_interpreter_is_refused
    ruby33 # skips (or fails in CI) when CRuby 3.3.8 is not built
    dir = tmpdir
    catalog = Rubyrig::Runtimes::Catalog.new(
      discovery: Rubyrig::Runtimes::Discovery.new(env: ENV.to_h, cache_dir: cache_dir),
      fingerprint: Rubyrig::Runtimes::Fingerprint.new(cache_dir: cache_dir)
    )
    bin = FileUtils.mkdir_p(File.join(dir, "bin")).first
    File.symlink(catalog.resolve("3.3.8").path, File.join(bin, "ruby"))
    file = experiment(dir)
    one = start_shard(dir, file, "1/2", "host-a")
    # On host b, "system" (the ruby on PATH) is CRuby 3.3.8.
    other = start_shard(dir, file, "2/2", "host-b", env: {"PATH" => "#{bin}:#{ENV["PATH"]}"})
    finish(one[0], one[2])
    finish(other[0], other[2])
    assert_match(/3\.3\.8/, Rubyrig::Processes::TextFile.json(File.join(other[1], "run.json")).dig("runtimes", "a", "interpreter", "description"))
    status, _, err = run_cli("merge", one[1], other[1], "--results", File.join(dir, "merged"))
    assert_equal 1, status
    assert_equal 1, err.lines.size
    assert_match(/rubyrig: error: runtime 'a' is ruby 3\.3\.8.* in shard 2\/2 .* but ruby 3\.1\.2.* in shard 1\/2 .*every shard must run the same interpreters/, err)
  end
end
