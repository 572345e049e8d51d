require "test_helper"
require "support/mixed_run"
require "support_report"

# docs/results-format.md must describe what rubyrig really writes: a real run's files are checked
# field by field against the document, and the metric table against the catalogue.
class ResultsFormatDocTest < Minitest::Test
  include SlowTest
  include MixedRun
  include SupportReport

  DOC = Rubyrig::Processes::TextFile.read(File.join(RubyrigTest::ROOT, "docs/results-format.md"))

  # {"run.json" => {"field" => "rest of the row"}, ...} from the tables under each "## " heading.
  def self.tables
    DOC.split(/^## /).drop(1).to_h do |section|
      title = section.lines.first.strip
      rows = section.lines.grep(/^\| `/).to_h do |row|
        cells = row.split(" | ")
        [cells.first[/`([^`]+)`/, 1], row]
      end
      [title, rows]
    end
  end

  TABLES = tables

  def documented(section) = TABLES.fetch(section).keys

  def test_the_one_writer_of_run_json_knows_exactly_the_documented_fields
    assert_equal documented("run.json").sort, Rubyrig::Results::RunMeta::FIELDS.map(&:to_s).sort
  end

  def test_a_real_run_matches_the_document
    dir = tmpdir
    run = File.join(dir, "run")
    status, _, err = run_cli("compare", "-r", "system", "-r", "system+yjit", "--batches", "1", "--iterations", "2",
      "--warmup", "1", "--param", "steps=200", "--results", run, "--", "builtin:nbody")
    assert_equal 0, status, err
    meta = Rubyrig::Processes::TextFile.json(File.join(run, "run.json"))
    assert_empty meta.keys - documented("run.json"), "run.json fields missing from the document"
    assert_equal Rubyrig::RESULTS_FORMAT_VERSION, meta["format_version"]
    interpreter_row = TABLES.fetch("run.json").fetch("runtimes")
    meta["runtimes"].values.first["interpreter"].each_key { |k| assert_includes interpreter_row, k }
    metrics_row = TABLES.fetch("run.json").fetch("metrics")
    assert_equal Rubyrig::Metrics.catalogue.keys.sort, meta.dig("metrics", "definitions").keys.sort, "run.json records every definition"
    meta["metrics"].each_key { |k| assert_includes metrics_row, "`#{k}`" }
    meta.dig("metrics", "definitions").each_value { |d| d.each_key { |k| assert_includes metrics_row, "`#{k}`" } }
    workloads_row = TABLES.fetch("run.json").fetch("workloads")
    meta["workloads"].each_value do |entry|
      assert entry.key?("options"), "each workload records the options its batches run with"
      entry.each_key { |k| assert_includes workloads_row, "`#{k}`", "workloads: #{k}" }
    end

    trials = trial_lines(run)
    trials.each do |trial|
      assert_empty trial.keys - documented("trials.jsonl"), "trial fields missing from the document"
      trial["facts"].each_key { |k| assert_includes TABLES.fetch("trials.jsonl").fetch("facts"), "`#{k}`" }
      assert_empty trial["metrics"].keys - documented("Metrics"), "metrics missing from the document"
    end

    summary = Rubyrig::Processes::TextFile.json(File.join(run, "summary.json"))
    assert_empty summary.keys - documented("summary.json (and --export-json)")
    rows = TABLES.fetch("summary.json (and --export-json)")
    summary["summaries"].first.each_key { |k| assert_includes rows.fetch("summaries"), "`#{k}`" }
    summary["comparisons"].first.each_key { |k| assert_includes rows.fetch("comparisons"), "`#{k}`" }
    summary["run"].each_key { |k| assert_includes rows.fetch("run"), "`#{k}`" }
    refute_empty summary["steady_state"], "a script's per-iteration times get a steady-state entry"
    summary["steady_state"].first.each_key { |k| assert_includes rows.fetch("steady_state"), "`#{k}`" }
  end

  # Every field of a checked steady-state entry, its trends and where it settles, is in the document.
  def test_the_steady_state_entries_match_the_document
    rng = Random.new(5)
    meta = synthetic_meta
    trials = synthetic_trials(meta, {"base" => [10.0] * 5, "fast" => [12.0] * 5}).map do |t|
      times = Array.new(12) { |i| 0.01 * (1 + 0.02 * rng.rand) * ((t.runtime == "fast") ? 1.3 - 0.025 * i : 1) }
      Rubyrig::Results::Trial.new(**t.to_h, samples: {"warmup_s" => [0.04, 0.03], "iterations_s" => times})
    end
    json = JSON.parse(Rubyrig::Reporters::Json.new(Rubyrig::Analysis.new.analyze(meta: meta, trials: trials)).render)
    row = TABLES.fetch("summary.json (and --export-json)").fetch("steady_state")
    entry = json.fetch("steady_state").find { |e| e["trending"] }
    refute_nil entry, "the fast cell still gets faster in its measured window"
    keys = entry.keys + entry["slope"].keys + entry["early_shift"].keys + entry["settle"].keys
    keys.each { |k| assert_includes row, "`#{k}`" }
  end

  def test_shards_and_their_merge_match_the_document
    dir = tmpdir
    file = write(dir, "exp.yml", "runtimes: [{spec: system, label: a}, {spec: system, label: b}]\n" \
      "workloads: [{builtin: nbody, params: {steps: 200}, iterations: 2, warmup: 1}]\nbatches: 4\nseed: 3\n")
    shards = %w[1 2].map do |k|
      out = File.join(dir, "shard-#{k}")
      status, _, err = run_cli("run", file, "--shard", "#{k}/2", "--host-id", "host-#{k}", "--results", out)
      assert_equal 0, status, err
      out
    end
    merged = File.join(dir, "merged")
    status, _, err = run_cli("merge", *shards, "--results", merged)
    assert_equal 0, status, err
    rows = TABLES.fetch("run.json")
    [shards.first, merged].each do |run|
      meta = Rubyrig::Processes::TextFile.json(File.join(run, "run.json"))
      assert_empty meta.keys - documented("run.json"), "#{run}: run.json fields missing from the document"
      assert meta.dig("plan", "order").all? { |b| b["shard"] }, "every batch names its shard"
    end
    shard = Rubyrig::Processes::TextFile.json(File.join(shards.first, "run.json"))
    shard["shard"].each_key { |k| assert_includes rows.fetch("shard"), "`#{k}`" }
    assert_includes rows.fetch("host"), "`host_id`"
    assert_includes rows.fetch("plan"), "`shard`"
    meta = Rubyrig::Processes::TextFile.json(File.join(merged, "run.json"))
    meta["shards"].first.each_key { |k| assert_includes rows.fetch("shards"), "`#{k}`" }
    trial_lines(merged).each { |t| assert_empty t.keys - documented("trials.jsonl") }
    comparison = Rubyrig::Processes::TextFile.json(File.join(merged, "summary.json"))["comparisons"].find { |c| c["hosts"] }
    documented_comparison = TABLES.fetch("summary.json (and --export-json)").fetch("comparisons")
    comparison.each_key { |k| assert_includes documented_comparison, "`#{k}`" }
    comparison["hosts"].first.each_key { |k| assert_includes documented_comparison, "`#{k}`" }
    comparison["heterogeneity"].each_key { |k| assert_includes documented_comparison, "`#{k}`" }
    csv = CSV.parse(Rubyrig::Reporters::Csv.new(Rubyrig::Analysis.new.analyze(meta: meta,
      trials: Rubyrig::Results::Store.open(merged).trials)).render, headers: true)
    %w[host heterogeneity].each do |section|
      assert_includes csv.map { |row| row["section"] }, section
      assert_includes TABLES.fetch("CSV export").keys, section
    end
  end

  def test_the_samples_of_a_mixed_run_are_documented
    row = TABLES.fetch("trials.jsonl").fetch("samples")
    trials = Rubyrig::Results::Store.open(mixed_run).trials
    keys = trials.flat_map { |t| t.samples.to_h.keys }.uniq
    assert_includes keys, "gvl_threads"
    assert_includes keys, "jobs_timeline"
    keys.each { |k| assert_includes row, "`#{k}`", "samples: #{k}" }
    nested = {"gvl_threads" => ->(v) { v.keys + v["threads"].first.keys }, "jobs_timeline" => ->(v) { v.keys },
              "wrk" => ->(v) { v.keys }, "profile" => ->(v) { v.keys }}
    nested.each do |sample, fields|
      value = trials.find { |t| t.samples.to_h.key?(sample) }.samples[sample]
      fields.call(value).each { |k| assert_includes row, "`#{k}`", "#{sample}: #{k}" }
    end
    summary = JSON.parse(Rubyrig::Reporters::Json.new(Rubyrig::Analysis.new.analyze(meta: Rubyrig::Results::Store.open(mixed_run).meta, trials: trials)).render)
    figures = TABLES.fetch("summary.json (and --export-json)")
    summary["figures"].each do |kind, list|
      assert figures.key?(kind), "figure #{kind} in the document"
      # Two +yjit-mem sizes at 2 batches may decide no difference, and then the Why figure is empty (test/integration/why_test.rb has it);
      # the mixed run searches no capacity (minutes of steps): test/integration/http_capacity_test.rb has that figure.
      refute_empty list, "figure #{kind} in the mixed run" unless %w[why capacity].include?(kind)
    end
  end

  def test_the_metric_table_is_the_catalogue
    assert_equal Rubyrig::Metrics.catalogue.keys.sort, documented("Metrics").sort
    Rubyrig::Metrics.catalogue.each_value do |m|
      row = TABLES.fetch("Metrics").fetch(m.name)
      assert_includes row, m.higher_is_better ? "| higher |" : "| lower |", m.name
    end
  end
end
