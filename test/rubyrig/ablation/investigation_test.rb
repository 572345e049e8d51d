# `rubyrig why` from plan to answer without processes: a follow-up that cannot run is a row saying why,
# and a follow-up whose estimate no longer fits the time left is skipped with that reason.
require "test_helper"

class AblationInvestigationTest < Minitest::Test
  Ablation = Rubyrig::Ablation

  # A runner whose runs cannot start (an interpreter without jemalloc, say); it counts the attempts.
  class RefusingRunner
    def self.attempts = @attempts ||= []

    def initialize(raw) = @raw = raw

    def start(dir, command:, command_line:)
      self.class.attempts << [dir, @raw["name"], command]
      raise Rubyrig::BuildError, "no libjemalloc on this host"
    end
  end

  Notes = Struct.new(:lines) do
    def note(text) = lines << text
  end

  def store
    dir = tmpdir
    cells = %w[system 3.3.8].each_with_index.map do |r, i|
      {"index" => i, "runtime" => r, "workload" => "builtin:mtime-threads", "params" => {"threads" => 4}, "effective_params" => {"threads" => 4, "calls" => 20_000}}
    end
    meta = Rubyrig::Results::RunMeta.build(name: "m", baseline: "system", finished_at: "2026-11-26T02:10:00Z", created_at: "2026-11-26T02:09:00Z",
      experiment: {"runtimes" => %w[system 3.3.8], "batches" => 5, "seed" => 1, "workloads" => [{"builtin" => "mtime-threads", "params" => {"threads" => 4}}]},
      plan: {"seed" => 1, "cells" => cells, "order" => []}, host: {"cores" => 2},
      runtimes: {"system" => {"interpreter" => {"engine" => "ruby", "mn" => false}}, "3.3.8" => {"interpreter" => {"engine" => "ruby", "mn" => true}}},
      workloads: {"builtin:mtime-threads" => {"kind" => "script", "primary_metrics" => ["iterations_per_s"]}})
    Rubyrig::Results::Store.create(dir, meta).tap(&:unlock)
  end

  SUMMARY = {"primary_metrics" => {"builtin:mtime-threads" => "iterations_per_s"},
             "comparisons" => [{"runtime" => "3.3.8", "baseline" => "system", "workload" => "builtin:mtime-threads", "params" => {"threads" => 4},
                                "metric" => "iterations_per_s", "ratio" => 0.12, "ci" => [0.1, 0.15], "verdict" => "slower"}]}.freeze

  def investigation(budget_s:, clock:, notes: Notes.new([]))
    Ablation::Investigation.new(store: store, summary: SUMMARY, kinds: Rubyrig::Kinds, progress: notes, budget_s: budget_s,
      runner_for: ->(_experiment, raw) { RefusingRunner.new(raw) }, command_line: %w[rubyrig why d], clock: clock)
  end

  def test_a_follow_up_that_cannot_run_is_a_row_saying_why
    RefusingRunner.attempts.clear
    notes = Notes.new([])
    answer = investigation(budget_s: 3600, clock: -> { 0.0 }, notes: notes).call.first
    assert_equal %w[concurrency mn cpus gc jemalloc], answer.rows.map(&:name), "no YJIT switch: neither interpreter says it has YJIT"
    assert(answer.rows.all? { |r| r.outcome == "not measured" && r.reason == "the follow-up could not run: no libjemalloc on this host" })
    assert_equal "why", RefusingRunner.attempts.first.last
    assert_match(/\Ano switch tried closes the gap \(threads=1, 2; \+mn on 3\.3\.8; /, answer.line)
    assert_includes notes.lines, "Why 3.3.8 against system: no measured factor points at it, so it is tried to rule it out: trying threads=1, 2"
  end

  def test_what_no_longer_fits_the_time_left_is_skipped_with_the_reason
    RefusingRunner.attempts.clear
    times = [0.0, 0.0, 1000.0]
    answer = investigation(budget_s: 200, clock: -> { times.shift || 1000.0 }).call.first
    assert_equal 1, RefusingRunner.attempts.size
    assert_equal ["the budget ran out (0s left)"], answer.skipped.map(&:reason).uniq
    assert_equal %w[mn cpus gc jemalloc], answer.skipped.map { |s| s.switch.name }
  end
end
