require "test_helper"

# `rubyrig why` on real processes, where the cause is known by construction:
# - threads: File.mtime under 4 threads is several times slower on CRuby 3.3.8 than on the system Ruby
#   3.1.2 (Ruby bug #20816) and not told apart at one thread, so lowering the threads closes the gap;
# - GC: the same Ruby twice, one with GC settings that keep its heap minimal while alloc-churn builds its
#   window (the first iteration, measured alone), so the larger GC heap closes the gap and no other
#   switch does.
# Each reads the answer recorded in run.json, which the run's report shows in every format.
class WhyTest < Minitest::Test
  include SlowTest

  TINY_GC = {"RUBY_GC_MALLOC_LIMIT" => "4096", "RUBY_GC_MALLOC_LIMIT_MAX" => "4096", "RUBY_GC_OLDMALLOC_LIMIT" => "4096",
             "RUBY_GC_OLDMALLOC_LIMIT_MAX" => "4096", "RUBY_GC_HEAP_FREE_SLOTS_MIN_RATIO" => "0.0", "RUBY_GC_HEAP_GROWTH_FACTOR" => "1.01"}.freeze

  def answers(dir) = Rubyrig::Results::Store.open(dir).run.ablations.fetch("answers")

  def test_the_mtime_threads_gap_closes_at_one_thread
    ruby33
    dir = File.join(tmpdir, "mtime")
    status, _, err = run_cli("compare", "-r", "system", "-r", "3.3.8", "--param", "threads=4", "--param", "calls=20000",
      "--iterations", "3", "--warmup", "1", "--seed", "5", "--results", dir, "--", "builtin:mtime-threads")
    assert_equal 0, status, err
    status, out, err = run_cli("why", dir, "--budget", "90s", "--export-csv", File.join(dir, "why.csv"))
    assert_equal 0, status, err
    speed = answers(dir).find { |a| a.dig("difference", "metric") == "iterations_per_s" }
    assert_equal "slower", speed.dig("difference", "verdict")
    one = speed["rows"].find { |r| r["point"] == {"threads" => 1} }
    assert_equal "closes the gap", one["outcome"], speed["line"]
    assert one["dir"].end_with?("/concurrency-threads"), one["dir"]
    assert speed["line"].start_with?("the difference comes from running 4 threads: at threads=1 3.3.8 "), speed["line"]
    assert_includes speed["line"], format("%.3fx [%.3f, %.3f]", one["ratio"], *one["ci"]), "the line cites the follow-up's own numbers"
    assert_match(/^Why 3\.3\.8 against system: GVL wait \d+\.\d+ s\/s on 3\.3\.8: trying threads=1, 2$/, err)
    assert_includes out, speed["line"]
    report = Rubyrig::Processes::TextFile.read(File.join(dir, "report.md"))
    assert_includes report, "the difference comes from running 4 threads: at threads=1 3.3.8 "
    assert_includes report, "rubyrig why #{dir} --budget 90s"
    assert_includes Rubyrig::Processes::TextFile.read(File.join(dir, "report.html")), %(data-figure="verdicts" data-metric="iterations_per_s")
    assert_includes Rubyrig::Processes::TextFile.read(File.join(dir, "why.csv")), "closes the gap"
    assert_equal speed, Rubyrig::Processes::TextFile.json(File.join(dir, "summary.json")).dig("why_ablations", "answers").first
  end

  def test_a_tiny_gc_heap_closes_with_the_larger_heap_and_nothing_else_closes_it
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
    run = File.join(dir, "gc")
    status, _, err = run_cli("run", File.join(dir, "gc.yml"), "--results", run)
    assert_equal 0, status, err
    status, _, err = run_cli("why", run, "--budget", "2m")
    assert_equal 0, status, err
    speed = answers(run).find { |a| a.dig("difference", "metric") == "iterations_per_s" }
    assert_equal "slower", speed.dig("difference", "verdict")
    outcomes = speed["rows"].to_h { |r| [r["name"], r["outcome"]] }
    assert_equal "closes the gap", outcomes.fetch("gc"), speed["line"]
    assert_equal ["gc"], outcomes.select { |_, o| o == "closes the gap" }.keys, "only the GC switch closes it: #{outcomes}"
    assert speed["line"].start_with?("the difference comes from the GC settings RUBY_GC_MALLOC_LIMIT"), speed["line"]
    assert_match(/^Why tiny against big: GC time higher: \d+\.\d+x \[[\d.]+, [\d.]+\] on tiny against big: trying a larger GC heap$/, err)
    follow_up = Rubyrig::Results::Store.open(File.join(run, speed["rows"].find { |r| r["name"] == "gc" }["dir"])).run
    assert_equal Rubyrig::Ablation::GC_ENV, follow_up.runtime("tiny").env, "the tiny settings gave way to the larger heap"
  end
end
