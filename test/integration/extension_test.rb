# A workload kind and a runtime variant that live only in the tests, each one folder or file plus one
# registry line (Kinds.add, Variants.add), go through a real run, the report and every format: the
# kind's metric and the variant's runtime appear in the terminal, JSON, CSV, Markdown and HTML reports,
# the variant's setting is confirmed by the probe in every batch, and `compare --help` lists it.
require "test_helper"
require_relative "../support/kind_lint"
require_relative "../fixtures/kinds/countdown/kind"
require_relative "../fixtures/variants/heap_slots"

class ExtensionTest < Minitest::Test
  include SlowTest

  def setup
    super
    Rubyrig::Kinds.add(CountdownKind::Kind)
    Rubyrig::Runtimes::Variants.add(HeapSlotsVariant)
  end

  def teardown
    Rubyrig::Kinds.remove(CountdownKind::Kind)
    Rubyrig::Runtimes::Variants.remove(HeapSlotsVariant)
    super
  end

  def test_a_test_kind_and_variant_go_through_run_report_and_every_format
    dir = tmpdir
    run = File.join(dir, "run")
    status, out, err = run_cli("compare", "-r", "system", "-r", "system+heap-slots=40000", "--batches", "3", "--seed", "2",
      "--results", run, "--", "countdown:200000")
    assert_equal 0, status, err
    assert_match(/countdowns\/s \(higher is better\)/, out)
    trials = Rubyrig::Processes::TextFile.read(File.join(run, "trials.jsonl")).lines.map { |line| JSON.parse(line) }
    assert_equal 6, trials.size
    assert_equal [Rubyrig::Results::Trial::OK], trials.map { |t| t["status"] }.uniq, "the probe confirmed the variant in every batch"
    trials.each do |trial|
      files = Dir.children(File.join(run, "artifacts", trial["batch_id"]))
      assert_empty KindLint.trial_problems(CountdownKind::Kind, trial, files: files), trial.inspect
    end
    meta = Rubyrig::Processes::TextFile.json(File.join(run, "run.json"))
    assert_equal [{"step" => 1}], meta.dig("plan", "cells").map { |c| c["effective_params"] }.uniq
    assert_equal({"kind" => "countdown", "primary_metric" => "countdowns_per_s"}, meta.dig("workloads", "countdown-200000").slice("kind", "primary_metric"))

    exports = %w[json csv markdown html].to_h { |format| [format, File.join(dir, "report.#{format}")] }
    status, terminal, err = run_cli("report", run, *exports.flat_map { |format, path| ["--export-#{format}", path] })
    assert_equal 0, status, err
    assert_match(/countdowns\/s/, terminal)
    assert_match(/system\+heap-slots=40000/, terminal)
    json = JSON.parse(Rubyrig::Processes::TextFile.read(exports["json"]))
    compared = json["comparisons"].select { |c| c["metric"] == "countdowns_per_s" }
    assert_equal ["system+heap-slots=40000"], compared.map { |c| c["runtime"] }
    assert_includes Rubyrig::Processes::TextFile.read(exports["csv"]), "countdowns_per_s"
    assert_match(/countdowns\/s/, Rubyrig::Processes::TextFile.read(exports["markdown"]))
    assert_match(/countdowns\/s/, Rubyrig::Processes::TextFile.read(exports["html"]))

    _, help, = run_cli("compare", "--help")
    assert_includes help, "+heap-slots=N"
  end

  # The variant's setting is what the probe must confirm: a process that did not get it fails its batch.
  def test_the_variant_is_checked_inside_the_process
    interpreter = Rubyrig::Runtimes::Interpreter.new(name: "system", path: RbConfig.ruby, engine: "ruby", version: RUBY_VERSION)
    runtime = Rubyrig::Experiment::Runtime.parse("system+heap-slots=40000")
    launch = Rubyrig::Runtimes::Launch.compose(runtime, interpreter, jemalloc: nil)
    assert_equal "40000", launch.env["RUBY_GC_HEAP_INIT_SLOTS"]
    assert_empty launch.contradictions("yjit_enabled" => false, "env" => {"RUBY_GC_HEAP_INIT_SLOTS" => "40000"})
    assert_equal ["RUBY_GC_HEAP_INIT_SLOTS=40000 was requested but the process saw nil"], launch.contradictions("yjit_enabled" => false, "env" => {})
    error = assert_raises(Rubyrig::RuntimeSpecError) { Rubyrig::Experiment::Runtime.parse("system+heap-slots") }
    assert_match(/\+heap-slots needs a number of heap slots/, error.message)
  end
end
