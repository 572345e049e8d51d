require "test_helper"

# `rubyrig why` on real processes, where the cause is known by construction:
# - threads: the same Ruby twice, one whose threads take turns through a Mutex while they sleep, so
#   the gap grows with the threads and vanishes at one: lowering the threads closes it, nothing else;
# - GC: the same Ruby twice, one with GC settings that keep its heap minimal while alloc-churn builds its
#   window (the first iteration, measured alone), so the larger GC heap removes the gap and no other
#   switch removes any of it.
# Each reads the answer recorded in run.json, which the run's report shows in every format.
class WhyTest < Minitest::Test
  include SlowTest

  TINY_GC = {"RUBY_GC_MALLOC_LIMIT" => "4096", "RUBY_GC_MALLOC_LIMIT_MAX" => "4096", "RUBY_GC_OLDMALLOC_LIMIT" => "4096",
             "RUBY_GC_OLDMALLOC_LIMIT_MAX" => "4096", "RUBY_GC_HEAP_FREE_SLOTS_MIN_RATIO" => "0.0", "RUBY_GC_HEAP_GROWTH_FACTOR" => "1.01"}.freeze

  def answers(dir) = Rubyrig::Results::Store.open(dir).run.ablations.fetch("answers")

  # Each thread sleeps five times 10 ms; the runtime "serial" (SERIALIZE=1) holds one Mutex while it
  # sleeps, so its 4 threads take turns: 4x slower at 4 threads, the same at one, whatever the load.
  SERIAL = <<~RUBY
    threads = Rubyrig.param("threads", 4)
    lock = (ENV["SERIALIZE"] == "1") ? Mutex.new : nil
    Rubyrig.bench do
      Array.new(threads) do
        Thread.new { 5.times { lock ? lock.synchronize { sleep 0.01 } : sleep(0.01) } }
      end.each(&:join)
    end
  RUBY

  # Runs dir/NAME.yml into dir/NAME, then `rubyrig why` on it with a 2-minute budget: [run, out, err].
  def run_then_why(dir, name, *why_args)
    run = File.join(dir, name)
    status, _, err = run_cli("run", File.join(dir, "#{name}.yml"), "--results", run)
    assert_equal 0, status, err
    status, out, err = run_cli("why", run, "--budget", "2m", *why_args)
    assert_equal 0, status, err
    [run, out, err]
  end

  def test_a_gap_that_comes_from_the_threads_closes_at_one_thread_and_nothing_else_closes_it
    dir = tmpdir
    write(dir, "serial.rb", SERIAL)
    write(dir, "serial.yml", <<~YAML)
      runtimes:
        - {spec: system, label: free}
        - {spec: system, label: serial, env: {SERIALIZE: "1"}}
      workloads:
        - script: serial.rb
          params: {threads: 4}
          iterations: 3
          warmup: 1
      batches: 5
      seed: 3
    YAML
    run, out, err = run_then_why(dir, "serial", "--export-csv", File.join(dir, "why.csv"))
    speed = answers(run).find { |a| a.dig("difference", "metric") == "iterations_per_s" }
    assert_equal "slower", speed.dig("difference", "verdict")
    one = speed["rows"].find { |r| r["point"] == {"threads" => 1} }
    assert_equal "closes the gap", one["outcome"], speed["line"]
    assert one["dir"].end_with?("/concurrency-threads"), one["dir"]
    assert_equal ["threads=1"], speed["rows"].select { |r| r["outcome"] == "closes the gap" }.map { |r| r["at"].delete_prefix("at ") }
    assert speed["line"].start_with?("the difference comes from running 4 threads: threads=1 removes "), speed["line"]
    assert_includes speed["line"], format("%.3fx [%.3f, %.3f]", one["ratio"], *one["ci"]), "the line cites the follow-up's own numbers"
    assert_operator one["share_ci"][0], :>=, Rubyrig::Ablation::Outcome::CLOSES_SHARE, "most of the gap is decided removed"
    share = format("%d%% [%d%%, %d%%]", *[one["share"], *one["share_ci"]].map { |x| (x * 100).round })
    assert_includes speed["line"], "threads=1 removes #{share} of the gap"
    assert_match(/^Why serial against free: .*: trying threads=1, 2$/, err)
    assert_includes out, speed["line"]
    report = Rubyrig::Processes::TextFile.read(File.join(run, "report.md"))
    assert_includes report, "the difference comes from running 4 threads: threads=1 removes #{share.gsub(/[\[\]]/) { |b| "\\#{b}" }} of the gap"
    assert_includes report, "Reproduce: rubyrig why #{run} --budget 2m"
    assert_includes Rubyrig::Processes::TextFile.read(File.join(run, "report.html")), %(data-figure="verdicts" data-metric="iterations_per_s")
    assert_includes Rubyrig::Processes::TextFile.read(File.join(dir, "why.csv")), "closes the gap"
    assert_equal speed, Rubyrig::Processes::TextFile.json(File.join(run, "summary.json")).dig("why_ablations", "answers").first
  end

  def test_a_tiny_gc_heap_gap_is_removed_by_the_larger_heap_and_by_nothing_else
    dir = tmpdir
    write(dir, "gc.yml", <<~YAML)
      runtimes:
        - {spec: system, label: big}
        - {spec: system, label: tiny, env: #{JSON.generate(TINY_GC)}}
      workloads:
        - builtin: alloc-churn
          params: {objects: 30000, retained: 10000}
          iterations: 1
          warmup: 0
      batches: 5
      seed: 11
    YAML
    run, _, err = run_then_why(dir, "gc")
    speed = answers(run).find { |a| a.dig("difference", "metric") == "iterations_per_s" }
    assert_equal "slower", speed.dig("difference", "verdict")
    outcomes = speed["rows"].to_h { |r| [r["name"], r["outcome"]] }
    # The larger heap removes all of the gap by construction; whether 5 batches decide that share above
    # half (closes) or only above 0 (narrows) depends on the host's noise, so either holds, and nothing
    # else removes a decided share.
    assert_includes ["closes the gap", "narrows it"], outcomes.fetch("gc"), speed["line"]
    assert_equal ["gc"], outcomes.select { |_, o| ["closes the gap", "narrows it"].include?(o) }.keys, "only the GC switch removes a decided share: #{outcomes}"
    assert speed["line"].start_with?("the difference comes from the GC settings RUBY_GC_MALLOC_LIMIT"), speed["line"]
    # Said when it runs, or in the plan when another metric of the cell (peak RSS) runs the same follow-up first.
    assert_match(/^(Why tiny against big: |  )GC time higher: \d+\.\d+x \[[\d.]+, [\d.]+\] on tiny against big: trying a larger GC heap( \(|$)/, err)
    follow_up = Rubyrig::Results::Store.open(File.join(run, speed["rows"].find { |r| r["name"] == "gc" }["dir"])).run
    assert_equal Rubyrig::Ablation::GC_ENV, follow_up.runtime("tiny").env, "the tiny settings gave way to the larger heap"
  end
end
