# The section of `rubyrig why`'s answers (run.json's `ablations`) in every format: the line, a row per
# factor switched after the difference as measured, the forest of ratios in HTML, the command that
# reproduces it; and no section before `rubyrig why` ran.
require "test_helper"
require "support_report"
require "csv"

class AblationsSectionTest < Minitest::Test
  include SupportReport

  LINE = "the difference comes from running 4 threads: threads=1 removes 100% [97%, 102%] of the gap (at threads=1 fast and base are " \
    "equivalent, 1.004x [0.985, 1.019], against 0.122x measured)"

  def record
    difference = {"cell" => "fast | w | n=1", "workload" => "w", "params" => {"n" => 1}, "runtime" => "fast", "reference" => "base",
                  "metric" => "iterations_per_s", "ratio" => 0.122, "ci" => [0.097, 0.153], "verdict" => "slower", "factors" => [], "line" => nil}
    rows = [{"switch" => "threads=1", "name" => "concurrency", "point" => {"threads" => 1}, "at" => "at threads=1", "was" => "running 4 threads",
             "why" => "GVL wait 2.97 s/s on fast: trying threads=1", "ratio" => 1.004, "ci" => [0.985, 1.019], "confidence" => 0.95,
             "p_adjusted" => 0.6, "verdict" => "equivalent", "reason" => "within ±2%", "method_name" => "t on round-paired log ratios",
             "margin" => 0.02, "n" => 5, "baseline_n" => 5, "df" => 7.9, "share" => 0.998, "share_ci" => [0.974, 1.021],
             "share_confidence" => 0.95, "share_df" => 9.6, "share_reason" => nil, "outcome" => "closes the gap", "advice" => nil, "dir" => "why/fast-vs-base-w-n-1/concurrency-threads"},
      {"switch" => "+jemalloc on fast", "name" => "jemalloc", "point" => {}, "why" => "w", "ratio" => nil, "ci" => nil, "verdict" => nil,
       "reason" => "the follow-up could not run: no libjemalloc", "advice" => nil, "share" => nil, "share_ci" => nil, "share_reason" => "the follow-up gave no ratio", "outcome" => "not measured", "dir" => "why/fast-vs-base-w-n-1/jemalloc"}]
    {"command_line" => %w[rubyrig why results/run --budget 5m],
     "answers" => [{"difference" => difference, "line" => LINE, "rows" => rows, "skipped" => [{"switch" => "+mn", "name" => "mn", "reason" => "needs about 20s, 5s of the budget left"}]}]}
  end

  def report(with: record)
    meta = synthetic_meta
    meta = meta.merge("ablations" => with) if with
    Rubyrig::Analysis.new.analyze(meta: meta, trials: synthetic_trials(meta, {"base" => [10.0, 10.1, 9.9, 10.05, 9.95], "fast" => [12.0, 12.1, 11.9, 12.05, 11.95]}))
  end

  def test_the_answer_in_every_format
    r = report
    table = r.sections.find { |s| s.name == "why_ablations" }.tables.first
    assert_equal ["none (the run as measured)", "threads=1", "+jemalloc on fast"], table.rows.map { |row| row["switch"] }
    assert_equal ["", "closes the gap", "not measured: the follow-up could not run: no libjemalloc"], table.rows.map { |row| row["outcome"] }
    terminal = Rubyrig::Reporters::Terminal.new(r).render
    assert_includes terminal, "(#{LINE})"
    assert_match(/threads=1\s+threads=1\s+1\.004x \[0\.985, 1\.019\]\s+equivalent\s+100% \[97%, 102%\] \(95%\)\s+closes the gap/, terminal)
    assert_equal ["", "100% [97%, 102%] (95%)", ""], table.rows.map { |row| row["share"] }
    markdown = Rubyrig::Reporters::Markdown.new(r).render
    assert_includes markdown, "- Reproduce: rubyrig why results/run --budget 5m"
    assert_includes markdown, "| 100% \\[97%, 102%\\] (95%) | closes the gap |"
    assert_includes markdown, "- skipped +mn: needs about 20s, 5s of the budget left"
    html = Rubyrig::Reporters::Html.new(r).render
    assert_includes html, %(<a href="why/fast-vs-base-w-n-1/concurrency-threads">)
    assert_equal 3, html.scan('class="forest-row"').size - Rubyrig::Reporters::Html.new(report(with: nil)).render.scan('class="forest-row"').size
    assert_equal record, JSON.parse(Rubyrig::Reporters::Json.new(r).render)["why_ablations"]
    rows = CSV.parse(Rubyrig::Reporters::Csv.new(r).render, headers: true).select { |row| row["section"] == "why_ablation" }
    assert_equal 3, rows.size
  end

  def test_what_would_decide_a_share_is_a_note
    with = record
    row = with.dig("answers", 0, "rows", 0).merge("outcome" => "does not decide", "advice" => "about 12 batches per runtime would decide it")
    with["answers"][0]["rows"] = [row]
    table = report(with: with).sections.find { |s| s.name == "why_ablations" }.tables.first
    assert_equal ["", "does not decide"], table.rows.map { |r| r["outcome"] }
    assert_includes table.notes, "at threads=1, the share is not decided: about 12 batches per runtime would decide it"
  end

  def test_no_section_before_rubyrig_why_ran
    r = report(with: nil)
    refute(r.sections.any? { |s| s.name == "why_ablations" })
    refute JSON.parse(Rubyrig::Reporters::Json.new(r).render).key?("why_ablations")
  end
end
