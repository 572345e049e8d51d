require "test_helper"
require "psych"

# The deployment templates: what the Kubernetes manifest and the GitHub Actions workflow contain, and
# the checks made before either is printed. Real validators check them in
# test/integration/deploy_test.rb.
class DeployTest < Minitest::Test
  def experiment(dir, extra = "batches: 6\nseed: 5\n")
    write(dir, "bench/exp.yml", "name: Web App\nruntimes: [system, system+yjit]\nworkloads: [{builtin: nbody}]\n#{extra}")
  end

  def deploy(*args)
    status, out, err = run_cli("deploy", *args)
    assert_equal 0, status, err
    out
  end

  def test_kubernetes_is_an_indexed_job_one_pod_per_node_with_guaranteed_resources
    dir = tmpdir
    Dir.chdir(dir) do
      experiment(dir)
      docs = Psych.load_stream(deploy("kubernetes", "bench/exp.yml", "--shards", "3", "--image", "reg/app:1", "--cpu", "4"))
      claim, job = docs
      assert_equal ["PersistentVolumeClaim", "Job"], docs.map { |d| d["kind"] }
      assert_equal ["ReadWriteMany"], claim.dig("spec", "accessModes")
      spec = job["spec"]
      assert_equal "rubyrig-web-app", job.dig("metadata", "name")
      assert_equal ["Indexed", 3, 3], [spec["completionMode"], spec["completions"], spec["parallelism"]]
      pod = spec.dig("template", "spec")
      term = pod.dig("affinity", "podAntiAffinity", "requiredDuringSchedulingIgnoredDuringExecution").first
      assert_equal "kubernetes.io/hostname", term["topologyKey"]
      assert_equal spec.dig("template", "metadata", "labels").slice("app.kubernetes.io/instance"), term.dig("labelSelector", "matchLabels")
      container = pod["containers"].first
      assert_equal({"cpu" => "4", "memory" => "4Gi"}, container.dig("resources", "requests"))
      assert_equal container.dig("resources", "requests"), container.dig("resources", "limits")
      host = container["env"].find { |e| e["name"] == "RUBYRIG_HOST_ID" }
      assert_equal "spec.nodeName", host.dig("valueFrom", "fieldRef", "fieldPath")
      script = container["command"].last
      assert_includes script, "rubyrig run bench/exp.yml --shard auto/3 --seed 5 --results \"$dir\""
      assert_includes script, "rubyrig run --resume \"$dir\""
      assert_equal "reg/app:1", container["image"]
      assert_equal claim.dig("metadata", "name"), pod["volumes"].first.dig("persistentVolumeClaim", "claimName")
    end
  end

  def test_kubernetes_merge_job_runs_rubyrig_merge_on_the_same_claim
    dir = tmpdir
    Dir.chdir(dir) do
      experiment(dir)
      job = Psych.load(deploy("kubernetes", "bench/exp.yml", "--shards", "2", "--image", "reg/app:1", "--merge",
        "--volume-claim", "shared", "--fail-if", "slower:5%"))
      container = job.dig("spec", "template", "spec", "containers").first
      assert_includes container["command"].last, "rubyrig merge /results/rubyrig-web-app/shards --results /results/rubyrig-web-app/merged --fail-if slower:5%"
      assert_equal "shared", job.dig("spec", "template", "spec", "volumes").first.dig("persistentVolumeClaim", "claimName")
    end
  end

  def test_github_actions_has_a_matrix_artifacts_and_a_merge_job_with_the_gate
    dir = tmpdir
    Dir.chdir(dir) do
      experiment(dir)
      workflow = Psych.safe_load(deploy("github-actions", "bench/exp.yml", "--shards", "2"))
      shard = workflow.dig("jobs", "shard")
      assert_equal [1, 2], shard.dig("strategy", "matrix", "shard")
      assert_equal false, shard.dig("strategy", "fail-fast")
      run = shard["steps"].find { |s| s["name"] == "Run the shard" }["run"]
      assert_equal "bundle exec rubyrig run bench/exp.yml --shard ${{ matrix.shard }}/2 --seed 5 --results rubyrig-shard-${{ matrix.shard }}", run
      upload = shard["steps"].find { |s| s["uses"].to_s.start_with?("actions/upload-artifact") }
      assert_equal "always()", upload["if"]
      merge = workflow.dig("jobs", "merge")
      assert_equal ["shard", "always()"], [merge["needs"], merge["if"]]
      assert_includes merge["steps"].map { |s| s["run"] }, "bundle exec rubyrig merge rubyrig-shards --results rubyrig-merged --fail-if slower"
    end
  end

  def test_github_actions_keeps_a_history_in_the_cache_and_gates_on_a_new_regression
    dir = tmpdir
    Dir.chdir(dir) do
      experiment(dir)
      steps = Psych.safe_load(deploy("github-actions", "bench/exp.yml", "--shards", "2")).dig("jobs", "merge", "steps")
      names = steps.map { |s| s["name"] }
      assert_equal ["Merge and gate", "Upload the merged run", "Restore the history", "Add the run to the history and gate on a new regression",
        "Save the history", "Upload the history's timeline"], names.compact.drop_while { |n| n != "Merge and gate" }
      restore, gate, save = steps.values_at(*%w[Restore Add Save].map { |w| names.index { |n| n.to_s.start_with?(w) } })
      assert_equal "actions/cache/restore@v4", restore["uses"]
      assert_equal "rubyrig-history-${{ github.ref_name }}-${{ github.run_id }}", restore.dig("with", "key")
      assert_equal ["rubyrig-history-${{ github.ref_name }}-", "rubyrig-history-${{ github.event.repository.default_branch }}-"], restore.dig("with", "restore-keys").lines.map(&:strip)
      assert_equal "bundle exec rubyrig history add rubyrig-history rubyrig-merged && bundle exec rubyrig history rubyrig-history --fail-if regressed --html rubyrig-history.html", gate["run"]
      assert_equal [restore.dig("with", "key"), "actions/cache/save@v4"], [save.dig("with", "key"), save["uses"]]
      assert_equal gate["if"], save["if"], "saved whenever the run was added, also when a gate failed"
      plain = Psych.safe_load(deploy("github-actions", "bench/exp.yml", "--shards", "2", "--no-history")).dig("jobs", "merge", "steps")
      assert_nil plain.find { |s| s["name"].to_s.include?("history") }
    end
  end

  def test_a_deployment_refuses_what_its_shards_would_refuse
    dir = tmpdir
    Dir.chdir(dir) do
      experiment(dir, "batches: 3\n")
      status, _, err = run_cli("deploy", "kubernetes", "bench/exp.yml", "--shards", "2", "--image", "x")
      assert_equal 2, status
      assert_equal ["rubyrig: error: 2 shards of 3 batches per cell leave 1 per shard, and each host needs at least 2: set batches to 4 or more, or use fewer --shards\n"], err.lines
      status, _, err = run_cli("deploy", "kubernetes", "bench/exp.yml", "--shards", "1")
      assert_equal 2, status
      assert_match(/give --image IMAGE/, err)
      status, out, err = run_cli("deploy", "github-actions", "bench/exp.yml", "--shards", "1")
      assert_equal 0, status
      seed = err[/every shard gets --seed (\d+)/, 1]
      assert seed, err
      assert_includes out, "--seed #{seed} "
    end
  end

  def test_shell_words_are_quoted_only_when_needed
    assert_equal "rubyrig run 'my exp.yml' --fail-if slower:5% x-${{ matrix.shard }}",
      Rubyrig::Deploy.shell(["rubyrig", "run", "my exp.yml", "--fail-if", "slower:5%", "x-${{ matrix.shard }}"])
    assert_equal %q('it'"'"'s'), Rubyrig::Deploy.shell(["it's"])
  end
end
