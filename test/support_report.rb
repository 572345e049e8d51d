# Builds an analysed report from synthetic trials, for reporter and analysis tests (pure logic only).
module SupportReport
  def synthetic_meta(runtimes: %w[base fast], params: [{"n" => 1}], batches: 5)
    cells = []
    params.each do |p|
      runtimes.each { |r| cells << {"index" => cells.size, "runtime" => r, "workload" => "builtin:nbody", "params" => p} }
    end
    order = (1..batches).flat_map { |b| cells.map { |c| {"id" => "c#{c["index"]}-b#{b}", "cell" => c["index"], "number" => b, "round" => b} } }
    {
      "name" => "synthetic", "baseline" => runtimes.first, "plan" => {"seed" => 3, "cells" => cells, "order" => order},
      "workloads" => {"builtin:nbody" => {"kind" => "script", "primary_metric" => "iterations_per_s"}},
      "host" => {"cores" => 2, "load_average" => [0.1, 0.1, 0.1], "cpu_model" => "Test CPU", "kernel" => "6.1"},
      "runtimes" => runtimes.to_h { |r| [r, {"interpreter" => {"description" => "ruby 3.1.2 (#{r})"}, "ruby_flags" => [], "env" => {}}] },
      "command_line" => %w[rubyrig compare -r base -r fast -- builtin:nbody]
    }
  end

  # values: {runtime => [iterations_per_s per batch]}; every trial also gets a peak RSS.
  def synthetic_trials(meta, values, status: {})
    meta["plan"]["order"].map do |b|
      cell = meta["plan"]["cells"][b["cell"]]
      key = Rubyrig::Experiment::Cell.new(index: cell["index"], runtime: cell["runtime"], workload: cell["workload"], params: cell["params"]).key
      rate = if values.respond_to?(:call)
        values.call(cell["runtime"], cell["params"], b["number"])
      else
        values.fetch(cell["runtime"])[b["number"] - 1]
      end
      Rubyrig::Results::Trial.new(batch_id: b["id"], cell_key: key, runtime: cell["runtime"], workload: cell["workload"],
        params: cell["params"], batch: b["number"], status: status.fetch(b["id"], "ok"),
        reason: status.key?(b["id"]) ? "exited with status 1: boom" : nil,
        metrics: {"iterations_per_s" => rate, "peak_rss_bytes" => 20_000_000 + rate * 1000}, warnings: [])
    end
  end

  def synthetic_report(**options)
    values = options.delete(:values) || {"base" => [10.0, 10.1, 9.9, 10.05, 9.95], "fast" => [12.0, 12.1, 11.9, 12.05, 11.95]}
    status = options.delete(:status) || {}
    meta = synthetic_meta(**options)
    Rubyrig::Analysis.new.analyze(meta: meta, trials: synthetic_trials(meta, values, status: status))
  end
end
