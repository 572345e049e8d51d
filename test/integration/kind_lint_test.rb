# The script and command kinds' trials from real batches with the system Ruby keep the result contract
# (KindLint): a Rubyrig.bench file, a plain file, a benchmark-ips file (one item per report), a
# command, and a command that fails.
require "test_helper"
require_relative "../support/kind_lint"

class KindLintIntegrationTest < Minitest::Test
  include SlowTest

  def lint(kind, args)
    run = File.join(tmpdir, "run")
    status, out, err = run_cli("compare", "-r", "system", "--batches", "1", "--results", run, *args)
    assert_includes [0, 1], status, "#{out}\n#{err}"
    trials = File.readlines(File.join(run, "trials.jsonl")).map { |line| JSON.parse(line) }
    refute_empty trials
    trials.each do |trial|
      files = Dir.children(File.join(run, "artifacts", trial["batch_id"]))
      assert_empty KindLint.trial_problems(Rubyrig::Kinds.fetch(kind), trial, files: files), trial.inspect
    end
    trials
  end

  def test_script_batches_keep_the_contract
    dir = tmpdir
    bench = write(dir, "bench.rb", "Rubyrig.bench { 200.times.sum }\n")
    plain = write(dir, "plain.rb", "200.times.sum\n")
    ips = write(dir, "ips.rb", "require 'benchmark/ips'\nBenchmark.ips { |x| x.report('sum') { 20.times.sum } }\n")
    assert_equal Rubyrig::Results::Trial::OK, lint("script", ["--iterations", "2", "--warmup", "1", "--", bench]).first["status"]
    assert_equal Rubyrig::Results::Trial::OK, lint("script", ["--", plain]).first["status"]
    items = lint("script", ["--duration-s", "0.2", "--warmup-s", "0", "--", ips]).first["items"]
    assert_equal ["sum"], items.map { |i| i["item"] }
  end

  def test_command_batches_keep_the_contract_measured_or_failed
    assert_equal Rubyrig::Results::Trial::OK, lint("command", ["--", "ruby", "-e", "1"]).first["status"]
    failed = lint("command", ["--", "ruby", "-e", "exit 3"]).first
    assert_equal Rubyrig::Results::Trial::FAILED, failed["status"]
  end
end
