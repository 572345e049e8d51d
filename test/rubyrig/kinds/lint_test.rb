# Every registered kind keeps the kind contract (KindLint), and results recorded from real http and jobs
# batches (too slow to run here; the script and command kinds are linted from real runs in
# test/integration/kind_lint_test.rb) keep the result contract.
require "test_helper"
require_relative "../../support/kind_lint"

class KindLintTest < Minitest::Test
  RECORDED = File.expand_path("../../fixtures/kinds/recorded", __dir__)

  def test_every_registered_kind_keeps_the_contract
    assert_equal %w[script http jobs command], Rubyrig::Kinds.names
    Rubyrig::Kinds.all.each { |kind| assert_empty KindLint.kind_problems(kind), kind.kind }
    assert_equal Rubyrig::Kinds.selectors.uniq, Rubyrig::Kinds.selectors, "one kind per selector"
  end

  def test_recorded_http_and_jobs_results_keep_the_contract
    %w[http jobs].each do |name|
      recorded = JSON.parse(File.read(File.join(RECORDED, "#{name}.json")))
      trial = recorded["trial"]
      assert_equal Rubyrig::Results::Trial::OK, trial["status"], "#{name} was recorded from a measured batch"
      assert_empty KindLint.trial_problems(Rubyrig::Kinds.fetch(name), trial, files: recorded["artifacts_dir"]), name
    end
  end

  # The lint finds what breaks the contract, so that a kind cannot pass it by accident.
  def test_the_lint_names_each_broken_rule
    recorded = JSON.parse(File.read(File.join(RECORDED, "http.json")))
    broken = recorded["trial"].merge("status" => "fine", "metrics" => {"requests_per_sec" => 1.0, "boot_s" => "fast"},
      "artifacts" => ["../run.json", "/etc/passwd", "missing.log"])
    problems = KindLint.trial_problems(Rubyrig::Kinds.fetch("http"), broken, files: recorded["artifacts_dir"])
    [/status "fine"/, /requests_per_sec is in the catalogue of no kind/, /boot_s is "fast"/, /none of its primary metrics/,
      /"\.\.\/run\.json" is not a relative path/, /"\/etc\/passwd" is not a relative path/, /missing\.log is not in the batch/].each do |pattern|
      assert(problems.any? { |p| p.match?(pattern) }, "#{pattern.inspect} in #{problems.inspect}")
    end
    failed = recorded["trial"].merge("status" => Rubyrig::Results::Trial::FAILED, "reason" => nil)
    assert_includes KindLint.trial_problems(Rubyrig::Kinds.fetch("http"), failed, files: recorded["artifacts_dir"]), "a failed batch must say why"
  end
end
