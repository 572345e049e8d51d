require "test_helper"

# Explaining a difference, on real interpreters: GVL wait from gvltools, a GVL timeline from
# gvl-tracing, YJIT memory across +yjit-mem settings, and profiles side by side.
class DiagnosticsIntegrationTest < Minitest::Test
  include SlowTest

  def compare(*args)
    run = File.join(tmpdir, "run")
    status, out, err = run_cli("compare", *args[0...-1], "--results", run, "--", args.last)
    assert_equal 0, status, err
    [out, run, Rubyrig::Results::Store.open(run)]
  end

  def test_gvl_wait_is_near_zero_with_one_thread_and_well_above_with_four
    _, _, store = compare("-r", ruby33, "--batches", "2", "--iterations", "3", "--warmup", "1",
      "--param", "threads=1,4", "--param", "increments=600000", "builtin:gvl-contention")
    by_threads = store.trials.group_by { |t| t.params["threads"] }
    one = by_threads[1].map { |t| t.metrics.fetch("gvl_wait_fraction") }
    four = by_threads[4].map { |t| t.metrics.fetch("gvl_wait_fraction") }
    assert_operator one.max, :<, four.min, "every 1-thread batch waits less for the GVL than every 4-thread batch"
    # Waiting threads come from a 50 ms sampler, so a short batch may hold few samples, or none taken
    # while the threads ran: only their presence and range hold by construction.
    store.trials.each { |t| assert_operator t.metrics.fetch("gvl_waiting_threads"), :>=, 0 }
  end

  def test_the_gvl_trace_of_a_two_thread_run_has_every_state_for_each_thread
    out, run, store = compare("-r", ruby33, "--batches", "1", "--iterations", "2", "--warmup", "0",
      "--param", "threads=2", "--param", "calls=3000", "--trace", "gvl", "builtin:mtime-threads")
    trace = store.trials.find { |t| t.diagnostic == "trace" }
    files = trace.artifacts.select { |a| a.start_with?("trace/") }
    assert_equal 1, files.size
    assert_match(%r{GVL traces .*ui\.perfetto\.dev}, out)
    events = Rubyrig::Processes::TextFile.json(File.join(run, "artifacts", trace.batch_id, files.first))
    assert_kind_of Array, events
    process = events.find { |e| e["name"] == "process_name" }
    assert_match(/\A#{Regexp.escape(ruby33)} · ruby 3\.3\.8/, process.dig("args", "name"))
    states = events.select { |e| e["ph"] == "B" }.group_by { |e| e["tid"] }.transform_values { |list| list.map { |e| e["name"] }.uniq }
    workers = states.select { |_, names| names.include?("started") }
    assert_operator workers.size, :>=, 2, "the two worker threads"
    workers.each_value do |names|
      %w[running wants_gvl waiting].each { |state| assert_includes names, state }
    end
    # The trial keeps each thread's time by state, so the report needs no trace file.
    summary = trace.samples.fetch("gvl_threads")
    tids = summary["threads"].map { |t| t["tid"] }
    workers.each_key { |tid| assert_includes tids, tid }
    summary["threads"].select { |t| workers.key?(t["tid"]) }.each do |t|
      assert_operator t["running_s"], :>, 0
      assert_operator t["wants_gvl_s"], :>, 0, "two threads share one GVL"
    end
  end

  def test_a_yjit_mem_sweep_reports_the_code_region_of_each_setting
    out, _, store = compare("-r", "#{ruby33}+yjit-mem=8,32", "--batches", "1", "--iterations", "2", "--warmup", "1",
      "--param", "steps=1000", "builtin:nbody")
    regions = store.trials.to_h { |t| [t.runtime, t.metrics["yjit_code_region_bytes"]] }
    assert_equal 2, regions.size
    regions.each_value { |bytes| assert_operator bytes, :>, 0 }
    assert_match(/YJIT memory against speed/, out)
    assert_match(/^\s+8 MiB .* \d.*B\s+\d/, out)
  end

  def test_profiles_are_compared_side_by_side
    out, _, store = compare("-r", "system", "-r", "system+yjit", "--batches", "1", "--iterations", "3",
      "--warmup", "1", "--param", "steps=1500", "--profile", "stackprof", "builtin:nbody")
    profiles = store.trials.select { |t| t.diagnostic == "profile" }
    assert_equal 2, profiles.size
    profiles.each { |t| assert_operator t.samples.dig("profile", "samples"), :>, 0 }
    assert_match(/Profiles \(stackprof, top frames by self time\) · builtin:nbody · steps=1500\n\s+#\s+system\s+system\+yjit/, out)
    assert_match(/Object#advance/, out)
    measured = store.trials.reject(&:diagnostic)
    assert_equal 2, measured.size
  end
end
