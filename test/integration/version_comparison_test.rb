require "test_helper"

# The question users ask most: system 3.1.2 against a 3.3.8 built by rubyrig, with and without M:N
# threads, on the File.mtime threads workload from seed 000, with a JSON and a Markdown report. It
# checks that every cell was measured and that the reports have their structure, never which is faster.
class VersionComparisonTest < Minitest::Test
  include SlowTest

  RUNTIMES = %w[system 3.3.8 3.3.8+mn].freeze
  THREADS = [1, 2, 4].freeze

  def test_system_against_3_3_8_and_mn_on_mtime_threads
    status, out, err = run_cli("build", "3.3.8")
    assert_equal 0, status, "3.3.8 could not be built: #{err}#{out}"
    dir = File.join(tmpdir, "run")
    json = File.join(tmpdir, "report.json")
    markdown = File.join(tmpdir, "report.md")
    status, out, err = run_cli("compare", *RUNTIMES.flat_map { |r| ["-r", r] }, "-b", "2", "--iterations", "3",
      "--warmup", "1", "--param", "threads=#{THREADS.join(",")}", "--param", "calls=2000", "--results", dir,
      "--export-json", json, "--export-markdown", markdown, "--", "builtin:mtime-threads")
    assert_equal 0, status, err + out

    # The measured batches: with system (no GVL hooks) in the run, 3.3.8 measures the GVL in a diagnostic batch apart.
    trials = File.readlines(File.join(dir, "trials.jsonl")).map { |l| JSON.parse(l) }.reject { |t| t["diagnostic"] }
    RUNTIMES.product(THREADS).each do |runtime, threads|
      cell = trials.select { |t| t["runtime"] == runtime && t.dig("params", "threads") == threads }
      assert_equal 2, cell.count { |t| t["status"] == "ok" }, "#{runtime} threads=#{threads}: #{cell.map { |t| t["reason"] }}"
    end
    versions = trials.group_by { |t| t["runtime"] }.transform_values { |ts| ts.map { |t| t.dig("facts", "description")[/\Aruby (\S+)/, 1] }.uniq }
    assert_equal({"system" => ["3.1.2"], "3.3.8" => ["3.3.8"], "3.3.8+mn" => ["3.3.8"]}, versions.transform_values { |v| v.map { |x| x[/\A\d+\.\d+\.\d+/] } })
    assert(trials.select { |t| t["runtime"] == "3.3.8+mn" }.all? { |t| t.dig("facts", "mn_threads_env") == "1" })
    assert(trials.reject { |t| t["runtime"] == "3.3.8+mn" }.none? { |t| t.dig("facts", "mn_threads_env") })

    report = Rubyrig::Processes::TextFile.json(json)
    assert_equal Rubyrig::RESULTS_FORMAT_VERSION, report["format_version"]
    assert_equal "system", report.dig("run", "baseline")
    assert_equal RUNTIMES, report.dig("run", "runtimes").keys
    assert_equal "rubyrig", report.dig("run", "runtimes", "3.3.8", "interpreter", "source")
    # 18 measured batches, and a GVL diagnostic batch for each cell of 3.3.8 and 3.3.8+mn (system has no hooks).
    assert_equal({"total" => 18 + 6, "failed" => 0}, report["batches"])
    rates = report["summaries"].select { |s| s["metric"] == "iterations_per_s" }
    assert_equal RUNTIMES.product(THREADS).sort, rates.map { |s| [s["runtime"], s.dig("params", "threads")] }.sort
    rates.each do |s|
      assert_equal 2, s["n"]
      assert_operator s["median"], :>, 0
    end
    comparisons = report["comparisons"].select { |c| c["metric"] == "iterations_per_s" }
    assert_equal %w[3.3.8 3.3.8+mn].product(THREADS).sort, comparisons.map { |c| [c["runtime"], c.dig("params", "threads")] }.sort
    comparisons.each do |c|
      assert_equal "system", c["baseline"]
      assert_operator c["ratio"], :>, 0
      assert_includes Rubyrig::Analysis::Verdict::ALL, c["verdict"]
    end

    md = Rubyrig::Processes::TextFile.read(markdown)
    assert_match(/^## rubyrig: mtime-threads$/, md)
    assert_match(/^\*\*Environment\*\*$/, md)
    assert_match(/^- `3\.3\.8\+mn`: ruby 3\.3\.8 .*env `RUBY_MN_THREADS=1`/, md)
    assert_match(/^\| params \| runtime \| n \| median \|/, md)
    THREADS.each do |threads|
      RUNTIMES.each do |runtime|
        assert_match(/^\| threads=#{threads} calls=2000 \| `#{Regexp.escape(runtime)}` \| 2 \|/, md)
      end
    end
  end
end
