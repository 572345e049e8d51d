# Real Puma and wrk, one runtime's app failing: the same app under two labels, one of which answers every
# 20th request with 500 (below max_error_rate, so its batches are ok with errors). The errors are 0 in
# every baseline batch and present in all 4 of the other's, which Fisher's test decides (p = 0.029), so
# they "appeared": the verdict and the counts per batch are in the terminal report, Markdown, HTML, JSON
# and CSV, and any --fail-if gate exits 3 on them.
require "test_helper"
require "json"
require "csv"

class HttpAppearedTest < Minitest::Test
  include SlowTest

  def test_errors_that_appear_have_a_verdict_in_every_format_and_fail_the_gate
    dir = tmpdir
    write(dir, "shop/config.ru", <<~RUBY)
      every = ENV["FAIL_EVERY"].to_i
      served = 0
      run(lambda do |env|
        served += 1
        [(every.positive? && (served % every).zero?) ? 500 : 200, {"content-type" => "text/plain"}, ["x"]]
      end)
    RUBY
    exp = write(dir, "exp.yml", <<~YAML)
      runtimes:
        - {spec: system, label: healthy, env: {FAIL_EVERY: "0"}}
        - {spec: system, label: failing, env: {FAIL_EVERY: "20"}}
      baseline: healthy
      workloads:
        - app: shop
          duration_s: 1
          warmup_s: 0
          max_error_rate: 0.2
      batches: 4
    YAML
    out = ->(ext) { File.join(dir, "report.#{ext}") }
    status, stdout, err = run_cli("run", exp, "--results", File.join(dir, "run"), "--fail-if", "slower:50%",
      "--export-json", out.call("json"), "--export-csv", out.call("csv"), "--export-markdown", out.call("md"),
      "--export-html", out.call("html"))
    assert_equal 3, status, err
    # Markdown escapes the interval's brackets.
    counts = /([\d.]+) per batch \(4 of 4 batches had any\) here against 0 in all 4 batches on the baseline \(Fisher's exact test on batches with any: p=0\.029; odds ratio of a batch with any \\?\[1\.34, inf\\?\]\)/
    assert_match(/^rubyrig: --fail-if appeared \(errors fail any gate\): failing \| \S+shop\S*: non-2xx\/3xx responses appeared against healthy \(#{counts}\)$/, err)

    line = "failing | #{File.join(dir, "shop", "config.ru")}: non-2xx/3xx responses appeared against healthy: "
    assert_match(/^  - #{Regexp.escape(line)}#{counts}$/, stdout, "terminal")
    assert_match(/^- #{Regexp.escape(line.gsub("|", "\\|"))}#{counts}$/, Rubyrig::Processes::TextFile.read(out.call("md")), "Markdown")
    assert_match(/<li>#{Regexp.escape(line)}#{counts}<\/li>/, Rubyrig::Processes::TextFile.read(out.call("html")).gsub("&#39;", "'"), "HTML")

    json = JSON.parse(Rubyrig::Processes::TextFile.read(out.call("json")))["comparisons"].find { |c| c["metric"] == "non_2xx_3xx_count" }
    assert_equal "appeared", json["verdict"]
    assert_equal "Fisher's exact test on batches with any", json["method_name"]
    appearance = json["appearance"]
    assert_equal [0, 4, 4, 4], appearance.values_at("base_batches_with", "other_batches_with", "base_n", "other_n")
    assert_equal [1.34, nil], [appearance["odds_ci"].first.round(2), appearance["odds_ci"].last]
    assert_equal 0.0, appearance["base_per_batch"]
    assert_operator appearance["other_per_batch"], :>, 0

    rows = CSV.parse(Rubyrig::Processes::TextFile.read(out.call("csv")), headers: true)
    csv = rows.find { |r| r["section"] == "cell" && r["runtime"] == "failing" && r["metric"] == "non_2xx_3xx_count" }
    assert_equal "appeared", csv["verdict"]
    assert_match(/\A#{counts}\z/, csv["detail"])
    # The reason shows the mean per batch to three figures, and whole from 100 on (320.5 reads "320").
    assert_in_delta json["appearance"]["other_per_batch"], Float(json["reason"][/\A[\d.]+/]), 0.5
  end
end
