require "test_helper"

# The CI gate on real processes: --fail-if slower exits 3 when a runtime is slower on the primary metric
# (here a script that sleeps six times longer, which holds on a busy host), and 0 when none is; the
# Markdown summary goes to GITHUB_STEP_SUMMARY.
class GateTest < Minitest::Test
  include SlowTest

  def experiment(dir, baseline)
    write(dir, "nap.rb", "sleep Float(ENV.fetch('NAP'))\n")
    write(dir, "nap.yml", <<~YAML)
      runtimes:
        - {spec: system, label: quick, env: {NAP: "0.05"}}
        - {spec: system, label: sleepy, env: {NAP: "0.3"}}
      baseline: #{baseline}
      workloads:
        - script: nap.rb
      batches: 3
    YAML
  end

  def test_fail_if_slower_exits_3_on_a_slower_runtime_and_0_otherwise
    dir = tmpdir
    summary = File.join(dir, "summary.md")
    status, _, err = run_cli("run", experiment(dir, "quick"), "--results", File.join(dir, "slower"), "--fail-if", "slower",
      env: {"GITHUB_STEP_SUMMARY" => summary})
    assert_equal 3, status, err
    assert_match(/^rubyrig: --fail-if slower: sleepy \| nap\.rb is slower on script run time against quick \(\d+\.\d+x \[/, err)
    assert_match(/^## rubyrig: nap$/, Rubyrig::Processes::TextFile.read(summary))
    assert_match(/\*\*rubyrig --fail-if\*\*: failed/, Rubyrig::Processes::TextFile.read(summary))

    status, _, err = run_cli("run", experiment(dir, "sleepy"), "--results", File.join(dir, "faster"), "--fail-if", "slower:5%",
      "--fail-if", "inconclusive", env: {"GITHUB_STEP_SUMMARY" => summary})
    assert_equal 0, status, err
    assert_match(/\*\*rubyrig --fail-if\*\*: passed/, Rubyrig::Processes::TextFile.read(summary))
  end

  def test_a_bad_condition_is_a_usage_error
    status, _, err = run_cli("compare", "-r", "system", "--fail-if", "slowr", "--", "builtin:nbody")
    assert_equal 2, status
    assert_equal "rubyrig: error: --fail-if takes slower, slower:PCT% (e.g. slower:5%), inconclusive or appeared[:METRIC], got 'slowr'\n", err
  end
end
