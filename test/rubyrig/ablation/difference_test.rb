# Which differences `rubyrig why` explains (the Why section's, else the decided verdicts of a primary
# metric or of peak RSS), and the follow-up experiment it builds for one of them.
require "test_helper"

class AblationDifferenceTest < Minitest::Test
  Ablation = Rubyrig::Ablation

  def comparison(metric, verdict, runtime: "3.3.8", params: {"threads" => 4}, other: nil)
    {"runtime" => runtime, "baseline" => "system", "workload" => "builtin:mtime-threads", "params" => params, "metric" => metric,
     "ratio" => 0.122, "ci" => [0.097, 0.153], "verdict" => verdict, "other" => other}
  end

  def summary(**extra)
    {"primary_metrics" => {"builtin:mtime-threads" => "iterations_per_s"},
     "comparisons" => [comparison("peak_rss_bytes", "lower"), comparison("iterations_per_s", "slower"), comparison("cpu_user_s", "higher"),
       comparison("iterations_per_s", "inconclusive", params: {"threads" => 1}), comparison("iterations_per_s", "slower", other: "threads=4")]}.merge(extra)
  end

  def test_without_a_why_section_the_decided_primary_and_peak_rss_comparisons_speed_first
    list = Ablation::Difference.all(summary)
    assert_equal %w[iterations_per_s peak_rss_bytes], list.map(&:metric)
    assert_equal "3.3.8 | builtin:mtime-threads | threads=4", list.first.cell
    assert_equal [], list.first.factors
    assert_equal "3.3.8-vs-system-mtime-threads-threads-4", list.first.slug
  end

  def test_the_why_section_gives_the_differences_and_their_factors
    why = [{"cell" => "3.3.8 | builtin:mtime-threads | threads=4", "workload" => "builtin:mtime-threads", "runtime" => "3.3.8",
            "reference" => "system", "metric" => "iterations_per_s", "ratio" => 0.122, "verdict" => "slower", "factors" => ["gvl"],
            "line" => "3.3.8 is 8.2x slower: its 4 threads wait for the GVL", "components" => []}]
    list = Ablation::Difference.all(summary("why" => why))
    assert_equal 1, list.size
    assert_equal ["gvl"], list.first.factors
    assert_equal [0.097, 0.153], list.first.ci, "the interval comes from the comparison"
    assert_equal({"threads" => 4}, list.first.params)
  end

  def follow_up_raw(switch)
    run = Rubyrig::Results::RunMeta.new("experiment" => {
      "runtimes" => ["system", {"spec" => "3.3.8", "env" => {"A" => "1"}}, "jruby"], "batches" => 5, "until" => "decided", "max_batches" => 30,
      "trace" => "gvl", "seed" => 7, "cpus" => "1", "workloads" => [{"builtin" => "mtime-threads", "params" => {"threads" => [1, 4], "calls" => 100}}]
    })
    runtimes = [Rubyrig::Experiment::Runtime.parse("system"), Rubyrig::Experiment::Runtime.parse("3.3.8", env: {"A" => "1"})].to_h { |r| [r.label, r] }
    follow_up = Ablation::FollowUp.new(run: run, runtimes: runtimes, runner_for: nil, command_line: [])
    difference = Ablation::Difference.all(summary).first
    follow_up.raw(difference, switch, run.experiment["workloads"].first, known: %w[threads calls], batches: 3)
  end

  def test_the_follow_up_is_the_cell_on_its_two_runtimes_with_one_switch_and_no_stopping_rule
    threads = Ablation::Switch.new(name: "concurrency", label: "threads=1, 2", params: {"threads" => [1, 2]}, runtimes: {}, experiment: {})
    raw = follow_up_raw(threads)
    assert_equal [{"builtin" => "mtime-threads", "params" => {"threads" => [1, 2]}}], raw["workloads"]
    assert_equal ["system", "3.3.8"], raw["runtimes"].map { |r| r["label"] }
    assert_equal({"A" => "1"}, raw["runtimes"].last["env"])
    assert_equal "system", raw["baseline"]
    assert_equal [3, 7, "1"], raw.values_at("batches", "seed", "cpus")
    assert_empty raw.keys & %w[until max_batches trace]
  end

  def test_a_switch_may_remove_a_key_of_the_experiment
    spread = Ablation::Switch.new(name: "cpus", label: "spread", params: {}, runtimes: {}, experiment: {"cpus" => nil})
    refute follow_up_raw(spread).key?("cpus")
    assert_equal({"threads" => [4]}, follow_up_raw(spread)["workloads"].first["params"].slice("threads"))
  end
end
