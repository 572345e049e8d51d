require "test_helper"
require "support/mixed_run"

# One analysis, every format: the report of one real mixed run carries each section, the figures'
# numbers included, in the terminal text, Markdown, JSON, CSV and HTML alike.
class ReportFormatsTest < Minitest::Test
  include SlowTest
  include MixedRun

  def report
    store = Rubyrig::Results::Store.open(mixed_run)
    Rubyrig::Analysis.new.analyze(meta: store.meta, trials: store.trials)
  end

  def test_the_mixed_run_has_every_section
    r = report
    refute_empty r.comparisons
    refute_empty r.http.connection_modes
    refute_empty r.sweeps
    refute_empty r.yjit_memory
    refute_empty r.profiles
    refute_empty r.traces
    # Two +yjit-mem sizes at 2 batches may decide no difference: the Why figure is tested in test/integration/why_test.rb;
    # a capacity search takes minutes of steps: its figure is tested in test/integration/http_capacity_test.rb.
    r.figures.to_h.each { |kind, list| refute_empty list, "figures: #{kind}" unless %i[why capacity].include?(kind) }
    assert_equal "jobs_per_s", r.primary_metric("builtin:sidekiq-noop")
  end

  def test_every_format_carries_every_section
    r = report
    terminal = Rubyrig::Reporters::Terminal.new(r).render
    markdown = Rubyrig::Reporters::Markdown.new(r).render
    html = Rubyrig::Reporters::Html.new(r).render
    json = JSON.parse(Rubyrig::Reporters::Json.new(r).render)
    csv = CSV.parse(Rubyrig::Reporters::Csv.new(r).render, headers: true).map { |row| row["section"] }.uniq
    {
      "comparisons" => [/jobs\/s \(higher is better\)/, /jobs\/s \(higher is better\)/, /<h3>jobs\/s/, %w[comparisons], "cell"],
      "connection modes" => [/Connection modes/, /\*\*Connection modes\*\*/, /<h3>Connection modes/, %w[http connection_modes], "connection_mode"],
      "sweeps" => [/Sweep over threads/, /\*\*Sweep over threads · /, /<h3>Sweep over threads/, %w[sweeps], "sweep"],
      "YJIT memory" => [/YJIT memory against speed/, /\*\*YJIT memory against speed\*\*/, /<h3>YJIT memory against speed/, %w[yjit_memory], "yjit_memory"],
      "profiles" => [/Profiles \(stackprof/, /\*\*Profiles \(stackprof/, /<h3>Profiles \(stackprof/, %w[profiles], "profile"],
      "traces" => [/GVL traces/, /\*\*GVL traces\*\*/, /<h2>GVL traces/, %w[traces], "trace"],
      "latency curves" => [/Latency percentiles · builtin:rack-hello/, /\*\*Latency percentiles · builtin:rack-hello/, /data-figure="latency"/, %w[figures latency], "latency"],
      "errors per batch" => [/Errors per batch · builtin:rack-hello/, /\*\*Errors per batch/, /data-figure="http-errors"/, %w[figures http_errors], "batch_errors"],
      "grids" => [/requests\/s over processes × threads/, /\*\*requests\/s over processes × threads/, /data-figure="grid"/, %w[figures grids], "grid"],
      "jobs timelines" => [/Jobs over time · builtin:sidekiq-noop/, /\*\*Jobs over time/, /data-figure="jobs"/, %w[figures jobs], "jobs_timeline"],
      "memory against speed" => [/Memory against speed · builtin:gvl-contention/, /\*\*Memory against speed/, /data-figure="memory-speed"/, %w[figures memory_speed], "memory_speed"],
      "GVL by thread" => [/GVL by thread · /, /\*\*GVL by thread/, /data-figure="gvl"/, %w[figures gvl], "gvl_thread"]
    }.each do |section, (in_terminal, in_markdown, in_html, json_path, csv_section)|
      assert_match in_terminal, terminal, "terminal: #{section}"
      assert_match in_markdown, markdown, "markdown: #{section}"
      assert_match in_html, html, "html: #{section}"
      refute_empty json.dig(*json_path), "json: #{section}"
      assert_includes csv, csv_section, "csv: #{section}"
    end
  end
end
