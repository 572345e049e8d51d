require "test_helper"
require "psych"
require "open3"

# The deployment templates checked by real validators (package.json; bin/setup installs them):
# the Kubernetes manifest against the Kubernetes API schema (kubernetes-models), the workflow against
# GitHub's workflow schema (@action-validator/cli); both must also reject a broken copy. Then the
# workflow's own commands run here: two shards and the merge with its gate.
class DeployIntegrationTest < Minitest::Test
  include SlowTest

  VALIDATORS = File.join(RubyrigTest::ROOT, "node_modules")
  ACTION_VALIDATOR = File.join(VALIDATORS, ".bin", "action-validator")
  KUBERNETES_VALIDATOR = File.join(RubyrigTest::ROOT, "test", "support", "validate-kubernetes.js")

  def setup
    super
    return if File.executable?(ACTION_VALIDATOR) && File.directory?(File.join(VALIDATORS, "kubernetes-models"))
    message = "the validators of package.json are not installed; run bin/setup"
    ENV["CI"] ? flunk(message) : skip(message)
  end

  def generate(dir, *args)
    Dir.chdir(dir) do
      status, out, err = run_cli("deploy", *args)
      assert_equal 0, status, err
      out
    end
  end

  def experiment(dir)
    write(dir, "bench/exp.yml", <<~YAML)
      name: deploy
      runtimes: [{spec: system, label: a}, {spec: system, label: b}]
      workloads: [{builtin: nbody, params: {steps: 200}, iterations: 2, warmup: 1}]
      batches: 4
      seed: 9
    YAML
  end

  def kubernetes_check(file)
    Open3.capture2e({"NODE_PATH" => VALIDATORS}, "node", KUBERNETES_VALIDATOR, file)
  end

  def workflow_check(file) = Open3.capture2e(ACTION_VALIDATOR, file)

  def test_the_kubernetes_manifest_and_merge_job_match_the_kubernetes_api_schema
    dir = tmpdir
    experiment(dir)
    manifest = write(dir, "job.yml", generate(dir, "kubernetes", "bench/exp.yml", "--shards", "2", "--image", "registry.example/bench:1"))
    merge = write(dir, "merge.yml", generate(dir, "kubernetes", "bench/exp.yml", "--shards", "2", "--image", "registry.example/bench:1", "--merge"))
    [manifest, merge].each do |file|
      output, status = kubernetes_check(file)
      assert status.success?, output
      assert_match(/batch\/v1 Job rubyrig-deploy(-merge)?: valid/, output)
    end
    broken = write(dir, "broken.yml", Rubyrig::Processes::TextFile.read(manifest).sub("parallelism: 2", "parallelism: \"two\"").sub(%(cpu: "2"), "cpu: [2]"))
    output, status = kubernetes_check(broken)
    refute status.success?, "a broken manifest must fail: #{output}"
    assert_match(%r{spec/parallelism must be integer}, output)
    assert_match(%r{resources/(requests|limits)/cpu}, output)
  end

  def test_the_workflow_matches_the_github_actions_schema
    dir = tmpdir
    experiment(dir)
    workflow = write(dir, "rubyrig.yml", generate(dir, "github-actions", "bench/exp.yml", "--shards", "2", "--fail-if", "slower:5%"))
    output, status = workflow_check(workflow)
    assert status.success?, output
    text = Rubyrig::Processes::TextFile.read(workflow)
    assert_includes text, "uses: actions/cache/restore@v4"
    assert_includes text, "rubyrig history rubyrig-history --fail-if regressed"
    broken = write(dir, "broken.yml", Rubyrig::Processes::TextFile.read(workflow).sub("runs-on:", "runs_on:"))
    output, status = workflow_check(broken)
    refute status.success?, "a broken workflow must fail: #{output}"
    assert_includes output, "Additional property 'runs_on' is not allowed"
  end

  # Each run: line of the workflow as a runner would execute it, with `bundle exec rubyrig` standing for
  # this checkout's rubyrig and the artifacts laid out as download-artifact lays them out; then the
  # history step on the merged run.
  def test_the_workflow_commands_run_two_shards_and_merge_them_here
    dir = tmpdir
    experiment(dir)
    workflow = Psych.safe_load(generate(dir, "github-actions", "bench/exp.yml", "--shards", "2"))
    run = workflow.dig("jobs", "shard", "steps").find { |s| s["name"] == "Run the shard" }["run"]
    merge = workflow.dig("jobs", "merge", "steps").find { |s| s["name"] == "Merge and gate" }["run"]
    rubyrig = "#{RbConfig.ruby} #{RubyrigTest::EXE}"
    env = ENV.to_h.merge("RUBYRIG_CACHE_DIR" => cache_dir)
    [1, 2].each do |shard|
      line = run.gsub("${{ matrix.shard }}", shard.to_s).sub("bundle exec rubyrig", rubyrig)
      output, status = Open3.capture2e(env.merge("RUBYRIG_HOST_ID" => "runner-#{shard}"), "bash", "-c", line, chdir: dir)
      assert status.success?, output
      FileUtils.mkdir_p(File.join(dir, "rubyrig-shards"))
      FileUtils.mv(File.join(dir, "rubyrig-shard-#{shard}"), File.join(dir, "rubyrig-shards", "rubyrig-shard-#{shard}"))
    end
    output, status = Open3.capture2e(env, "bash", "-c", merge.sub("bundle exec rubyrig", rubyrig), chdir: dir)
    # An A/A run: the gate (--fail-if slower) passes unless b is called slower, which would exit 3.
    assert_includes [0, 3], status.exitstatus, output
    assert_includes output, "b by host: runner-1"
    assert_equal 8, trial_lines(File.join(dir, "rubyrig-merged")).size
    history = workflow.dig("jobs", "merge", "steps").find { |s| s["name"] == "Add the run to the history and gate on a new regression" }["run"]
    output, status = Open3.capture2e(env, "bash", "-c", history.gsub("bundle exec rubyrig", rubyrig), chdir: dir)
    assert_equal 0, status.exitstatus, "one run in a history is no regression: #{output}"
    # A merged run is a point per host (the shards' hosts share this machine's fingerprint): nothing moves.
    assert_includes output, "iterations_per_s on b (higher is better; 2 runs by time)\n  no change point in 2 runs"
    assert File.file?(File.join(dir, "rubyrig-history.html"))
  end
end
