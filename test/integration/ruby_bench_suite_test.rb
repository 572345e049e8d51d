require "test_helper"

# A whole ruby-bench-shaped checkout (test/fixtures/ruby_bench_suite) as one experiment on real
# interpreters, end to end: every benchmark of "all" a cell, one whose gems do not install and one that
# needs a newer Ruby than the system's fail their cells once with the reason while the rest runs, and
# the suite's headline (geometric means with intervals, benchmarks per verdict) and the list of those
# that did not run reach every format. Run as two shards in separate processes, the suite merges into
# one report with the single run's cells and the same benchmarks that did not run.
class RubyBenchSuiteTest < Minitest::Test
  include SlowTest

  FIXTURE = File.join(RubyrigTest::ROOT, "test/fixtures/ruby_bench_suite")
  ALL = %w[fib greet broken newer loops].freeze

  # A copy of the fixture, so that gem sets and what benchmarks write stay out of the repository.
  def checkout
    root = File.join(tmpdir, "ruby-bench")
    FileUtils.cp_r(FIXTURE, root)
    root
  end

  def suite_data(json) = Rubyrig::Processes::TextFile.json(json).fetch("suites").first

  # The suite's geometric mean and its 95% interval computed here from the trials, as docs/statistics.md
  # states them: D the mean of the benchmarks' log ratios, Var(D) the sum of their variances over k^2
  # (round-paired where the benchmark's comparison was, else Welch's two parts), on Satterthwaite's df.
  def suite_geomean(trials, comparisons, runtime, benches)
    parts = benches.map do |bench|
      values = %w[system other].to_h do |side|
        ok = trials.select { |t| t["status"] == "ok" && t.dig("params", "bench") == bench && (t["runtime"] == "system") == (side == "system") }
        [side, ok.to_h { |t| [t["round"], Math.log(t.dig("metrics", "iterations_per_s"))] }]
      end
      paired = comparisons.find { |c| c["runtime"] == runtime && c["metric"] == "iterations_per_s" && c.dig("params", "bench") == bench }.fetch("paired")
      paired ? paired_part(values) : welch_part(values)
    end
    k = parts.size
    d = parts.sum(&:first) / k
    variances = parts.flat_map(&:last).map { |v, df| [v / k**2, df] }
    var = variances.sum(&:first)
    df = var**2 / variances.sum { |v, f| v**2 / f }
    half = Rubyrig::Stats.t_quantile(0.975, df) * Math.sqrt(var)
    {ratio: Math.exp(d), ci: [Math.exp(d - half), Math.exp(d + half)]}
  end

  def paired_part(values)
    diffs = (values["system"].keys & values["other"].keys).map { |r| values["other"][r] - values["system"][r] }
    [mean(diffs), [[sample_variance(diffs) / diffs.size, diffs.size - 1]]]
  end

  def welch_part(values)
    base, other = values.values_at("system", "other").map(&:values)
    [mean(other) - mean(base), [base, other].map { |list| [sample_variance(list) / list.size, list.size - 1] }]
  end

  def mean(list) = list.sum / list.size

  def sample_variance(list) = list.sum { |x| (x - mean(list))**2 } / (list.size - 1)

  def test_the_whole_checkout_runs_and_its_headline_lists_what_did_not_run
    root = checkout
    dir = tmpdir
    run = File.join(dir, "run")
    exports = %w[json csv markdown html].to_h { |f| [f, File.join(dir, "report.#{f}")] }
    status, out, err = run_cli("compare", "-r", "system", "-r", ruby33, "--batches", "3", "--iterations", "3", "--warmup", "1",
      "--results", run, *exports.flat_map { |f, path| ["--export-#{f}", path] }, "--", root)
    assert_equal 1, status, "failed batches make the exit status 1\n#{err}#{out}"
    trials = trial_lines(run).reject { |t| t["diagnostic"] } # the measured batches, not a GVL-traced one
    assert_equal ALL.sort, trials.map { |t| t.dig("params", "bench") }.uniq.sort, "all: every benchmark but the Ractor-harness one"
    assert_equal 30, trials.size

    broken = trials.select { |t| t.dig("params", "bench") == "broken" }
    assert(broken.all? { |t| t["status"] == "failed" && t["reason"].match?(/could not install the gem set from .*broken\/Gemfile: .*not-there/) })
    newer = trials.select { |t| t.dig("params", "bench") == "newer" }.group_by { |t| t["runtime"] }
    assert(newer.fetch(ruby33).all? { |t| t["status"] == "ok" }, "Data.define runs on 3.3.8")
    assert_equal ["failed"], newer.fetch("system").map { |t| t["status"] }.uniq
    reasons = newer.fetch("system").sort_by { |t| t["batch"] }.map { |t| t["reason"] }
    assert_match(/uninitialized constant Data \(NameError\)\z/, reasons.first)
    assert(reasons.drop(1).all? { |r| r.end_with?("(not run again: batch 1 of this cell failed and none succeeded)") }, reasons.inspect)
    assert_equal 1, newer.fetch("system").count { |t| t.dig("facts", "ruby_processes").to_i.positive? }, "only the first batch started a Ruby"

    suite = suite_data(exports["json"])
    assert_equal [%w[broken other], %w[newer other]], suite["not_run"].map { |n| [n["bench"], n["category"]] }
    assert_equal(["system", ruby33], suite["not_run"].first["runtimes"])
    assert_equal ["system"], suite["not_run"].last["runtimes"]
    all = suite["headlines"].find { |h| h["category"] == "all" && h["metric"] == "iterations_per_s" }
    assert_equal 3, all["n"], "fib, greet and loops ran on both runtimes"
    assert_equal 2, all["counts"]["not run"]
    assert_equal 5, all["counts"].values.sum
    expected = suite_geomean(trials, JSON.parse(Rubyrig::Processes::TextFile.read(exports["json"]))["comparisons"], ruby33, %w[fib greet loops])
    assert_in_delta expected[:ratio], all["ratio"], 1e-9 * expected[:ratio], "the geometric mean of the benchmarks' ratios, from the trials"
    assert_in_delta expected[:ci][0], all["ci"][0], 1e-9 * expected[:ci][0], "its interval, from the trials"
    assert_in_delta expected[:ci][1], all["ci"][1], 1e-9 * expected[:ci][1], "its interval, from the trials"
    assert_equal %w[all headline other micro], suite["headlines"].select { |h| h["metric"] == "iterations_per_s" }.map { |h| h["category"] }
    assert(%w[peak_rss_bytes end_rss_bytes].all? { |m| suite["headlines"].any? { |h| h["metric"] == m && h["ratio"] } }, "memory beside speed")

    assert_match(/^Suite headline · ruby-bench/, out)
    assert_match(/^Benchmarks that did not run · ruby-bench/, out)
    markdown = Rubyrig::Processes::TextFile.read(exports["markdown"])
    assert_match(/Suite headline · ruby-bench/, markdown)
    assert_match(/newer.*uninitialized constant Data/, markdown)
    csv = Rubyrig::Processes::TextFile.read(exports["csv"])
    assert_equal 5, csv.lines.count { |l| l.start_with?("suite_benchmarks,#{ruby33},") }
    assert_equal 2, csv.lines.count { |l| l.start_with?("suite_not_run,") }
    html = Rubyrig::Processes::TextFile.read(exports["html"])
    assert_equal 1, html.scan('data-figure="suite"').size
    assert_equal 5, html[/data-figure="suite".*?<\/figure>/m].scan('class="forest-row"').size
  end

  EXPERIMENT = <<~YAML
    name: suite
    runtimes: [system, "%<ruby33>s"]
    workloads:
      - script: %<root>s
        params: {bench: [headline, newer]}
        iterations: 2
        warmup: 1
    batches: 4
    seed: 27
  YAML

  def test_two_shards_merge_into_the_single_runs_cells
    root = checkout
    dir = tmpdir
    file = write(dir, "suite.yml", format(EXPERIMENT, ruby33: ruby33, root: root))
    # The single run first: it installs the gem sets the shards then share.
    single = File.join(dir, "single")
    status, _, err = run_cli("run", file, "--results", single, "--export-json", File.join(dir, "single.json"))
    assert_equal 1, status, err
    shards = %w[1/2 2/2].map do |shard|
      results = File.join(dir, "shard-#{shard[0]}")
      log = FileUtils.mkdir_p(File.join(dir, "log-#{shard[0]}")).first
      [spawn_rubyrig("run", file, "--shard", shard, "--host-id", "host-#{shard[0]}", "--results", results, dir: log), results, log]
    end
    shards.each do |pid, _, log|
      Process.wait(pid)
      assert_equal 1, $?.exitstatus, Rubyrig::Processes::TextFile.read(File.join(log, "rubyrig.err"))
    end
    merged = File.join(dir, "merged")
    status, _, err = run_cli("merge", *shards.map { |s| s[1] }, "--results", merged, "--export-json", File.join(dir, "merged.json"))
    assert_equal 1, status, err

    cells = ->(run) { Rubyrig::Processes::TextFile.json(File.join(run, "run.json")).dig("plan", "cells").map { |c| c.slice("key", "runtime", "params") } }
    assert_equal cells.call(single), cells.call(merged)
    assert_equal 6, cells.call(merged).size, "fib, greet and newer on two runtimes"
    assert_equal 24, trial_lines(merged).count { |t| !t["diagnostic"] }, "two shards of 2 batches per cell"
    single_suite, merged_suite = %w[single merged].map { |name| suite_data(File.join(dir, "#{name}.json")) }
    assert_equal single_suite["not_run"].map { |n| n.slice("bench", "runtimes") }, merged_suite["not_run"].map { |n| n.slice("bench", "runtimes") }
    assert_equal [{"bench" => "newer", "runtimes" => ["system"]}], merged_suite["not_run"].map { |n| n.slice("bench", "runtimes") }
    # Within a category the rows follow the measured ratios, so their order may differ between runs.
    rows = ->(suite) { suite["benchmarks"].map { |b| [b["bench"], b["runtime"], !b.dig("ratios", "iterations_per_s", "ratio").nil?] }.sort }
    assert_equal rows.call(single_suite), rows.call(merged_suite)
  end
end
