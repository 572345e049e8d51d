require "test_helper"

# system vs system+yjit on builtin:nbody through the real harness: YJIT must come out faster, with a
# 95% CI that excludes 1.0. YJIT roughly doubles nbody's speed on 3.1, so 5 batches separate them.
class YjitTest < Minitest::Test
  include SlowTest

  def test_yjit_is_faster_on_nbody_with_a_ci_that_excludes_one
    dir = tmpdir
    json = File.join(dir, "report.json")
    status, out, err = run_cli("compare", "-r", "system", "-r", "system+yjit", "--batches", "5",
      "--iterations", "5", "--warmup", "2", "--param", "steps=2500", "--seed", "11",
      "--results", File.join(dir, "run"), "--export-json", json, "--", "builtin:nbody")
    assert_equal 0, status, err
    assert_match(/system\+yjit .* faster/, out)
    doc = Rubyrig::Processes::TextFile.json(json)
    c = doc["comparisons"].find { |x| x["runtime"] == "system+yjit" && x["metric"] == "iterations_per_s" }
    assert_equal "faster", c["verdict"]
    assert_operator c["ci"][0], :>, 1.0
    assert_operator c["ratio"], :>, 1.0
    trials = trial_lines(File.join(dir, "run"))
    assert_equal 10, trials.size
    yjit = trials.select { |t| t["runtime"] == "system+yjit" }
    assert(yjit.all? { |t| t.dig("facts", "yjit_enabled") == true }, "the probe confirms YJIT in every batch")
    assert(trials.reject { |t| t["runtime"] == "system+yjit" }.all? { |t| t.dig("facts", "yjit_enabled") == false })
    assert(trials.all? { |t| t.dig("samples", "iterations_s").size == 5 && t.dig("samples", "warmup_s").size == 2 })
  end

  # The case the permutation test could never call: at 3 batches per side its smallest p was 0.1, so
  # 3.1's YJIT mapping ~17 times the memory came out "no significant difference".
  def test_three_batches_are_enough_to_call_a_large_memory_change
    dir = tmpdir
    json = File.join(dir, "report.json")
    status, _, err = run_cli("compare", "-r", "system", "-r", "system+yjit", "--batches", "3", "--iterations", "2",
      "--warmup", "0", "--param", "steps=300", "--results", File.join(dir, "run"), "--export-json", json, "--", "builtin:nbody")
    assert_equal 0, status, err
    c = Rubyrig::Processes::TextFile.json(json)["comparisons"].find { |x| x["runtime"] == "system+yjit" && x["metric"] == "peak_rss_bytes" }
    assert_equal "higher", c["verdict"]
    assert_operator c["ci"][0], :>, 5.0
  end
end
