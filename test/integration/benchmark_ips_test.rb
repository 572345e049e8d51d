require "test_helper"

# A benchmark-ips file runs unmodified (the gem is not even installed): each x.report item is measured
# in every batch and compared across runtimes as a cell of its own, with its own statistics.
class BenchmarkIpsTest < Minitest::Test
  include SlowTest

  # Seconds of rounds per item per batch, in place of the file's 30: what the assertions check, kept short.
  DURATION_S = 0.5

  def test_two_report_items_are_two_compared_items
    dir = tmpdir
    file = write(dir, "concat.rb", <<~RUBY)
      require "benchmark/ips"

      Benchmark.ips do |x|
        x.config(time: 30, warmup: 30)
        x.report("interpolation") { "a\#{1}b" }
        x.report("plus") { "a" + 1.to_s + "b" }
        x.compare!
      end
    RUBY
    run = File.join(dir, "run")
    json = File.join(dir, "report.json")
    csv = File.join(dir, "report.csv")
    status, out, err = run_cli("compare", "-r", "system", "-r", "system+yjit", "--batches", "3",
      "--duration-s", DURATION_S.to_s, "--warmup-s", "0.2", "--results", run, "--export-json", json, "--export-csv", csv, "--", file)
    assert_equal 0, status, err + out
    trials = trial_lines(run)
    assert_equal 6, trials.size
    trials.each do |t|
      assert_equal "ok", t["status"], t["reason"]
      assert_equal %w[interpolation plus], t["items"].map { |i| i["item"] }
      # --duration-s replaced the file's 30 s, as the shim's measuring loop guarantees: each item's
      # rounds go on until DURATION_S has passed, so the script ran at least that long per item; every
      # round but the last ended before that deadline. measured_s is the sum of the rounds alone (the
      # moments between rounds are not in it), so it can fall short of DURATION_S.
      assert_operator t.dig("metrics", "run_s"), :>=, 2 * DURATION_S
      t["items"].each do |i|
        samples = i["samples"]
        assert_in_delta samples["rounds_s"].sum, samples["measured_s"], 1e-9
        assert_operator samples["measured_s"] - samples["rounds_s"].last, :<, DURATION_S
        assert_in_delta samples["iterations"] / samples["measured_s"], i.dig("metrics", "iterations_per_s"), 1e-6
      end
    end

    report = Rubyrig::Processes::TextFile.json(json)
    %w[interpolation plus].each do |item|
      c = report["comparisons"].find { |x| x["params"] == {"item" => item} && x["metric"] == "iterations_per_s" }
      assert c, "a comparison for #{item}"
      assert_equal [3, 3], [c["n"], c["baseline_n"]]
      assert_includes Rubyrig::Analysis::Verdict::ALL, c["verdict"]
      assert_operator c["ci"][0], :<, c["ci"][1]
    end
    assert_equal "iterations_per_s", report["primary_metrics"]["concat.rb"]
    rows = CSV.read(csv, headers: true, encoding: "UTF-8").select { |r| r["section"] == "cell" && r["metric"] == "iterations_per_s" }
    assert_equal ["item=interpolation", "item=interpolation", "item=plus", "item=plus"], rows.map { |r| r["params"] }.sort
    assert_match(/^concat\.rb · item=interpolation\n  iterations\/s \(higher is better\)/, out)
    assert_match(/^concat\.rb · item=plus\n/, out)
  end
end
