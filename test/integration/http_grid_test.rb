# Real Puma and wrk: a processes x threads grid (1, 2 x 1, 4) of builtin:rack-hello on the system Ruby
# and on CRuby 3.3.8, each runtime from its own gem set; cluster mode must report master and workers.
# What it checks is the grid's shape, not speed: one measured second per batch and no warmup do.
require "test_helper"
require "digest"

class HttpGridTest < Minitest::Test
  include SlowTest

  def test_processes_by_threads_grid_on_two_runtimes
    dir = tmpdir
    other = ruby33
    exp = write(dir, "grid.yml", <<~YAML)
      runtimes: [system, "#{other}"]
      workloads:
        - builtin: rack-hello
          params: {processes: [1, 2], threads: [1, 4]}
          duration_s: 1
          warmup_s: 0
      batches: 2
      seed: 7
    YAML
    results = File.join(dir, "run")
    status, out, err = run_cli("run", exp, "--results", results)
    assert_equal 0, status, "#{out}\n#{err}"

    store = Rubyrig::Results::Store.open(results)
    # The measured batches (3.3.8 measures the GVL in a diagnostic batch apart: system cannot).
    trials = store.trials.select(&:measured?)
    assert_equal 16, trials.size
    # A busy host can make wrk time out on a request now and then: such a batch is "ok_with_errors" and
    # carries a warning that counts the errors by kind; a failed batch is what this test rules out.
    not_ok = trials.reject(&:ok?)
    assert_empty not_ok, not_ok.map { |t| [t.cell_key, t.status, t.reason, t.warnings] }.inspect
    trials.select { |t| t.status == "ok_with_errors" }.each do |t|
      assert_operator t.metrics["error_count"], :>, 0, t.cell_key
      assert(t.warnings.any? { |w| w.match?(/\d+ errors in \d+ responses/) }, t.warnings.inspect)
    end
    assert_equal [[1, 1], [1, 4], [2, 1], [2, 4]], trials.map { |t| [t.params["processes"], t.params["threads"]] }.uniq.sort

    trials.each do |trial|
      processes = trial.params["processes"]
      # Single mode is one Ruby process; cluster mode is the master plus one per worker, each with a probe.
      # Puma on CRuby 3.3 now and then deadlocks in its own graceful stop ("No live threads left"); such
      # a server is killed, writes no probe file, and the batch carries a warning saying so.
      unclean = trial.warnings.to_a.any? { |w| w.include?("did not exit cleanly") }
      assert_equal((processes == 1) ? 1 : processes + 1, trial.facts["ruby_processes"], trial.cell_key) unless unclean
      assert_operator trial.metrics["requests_per_s"], :>, 0
      assert_equal Rubyrig::Processes::TextFile.read(File.join(results, "artifacts", trial.batch_id, "puma.rb"))[/^threads (\d+)/, 1].to_i, trial.params["threads"]
    end

    # The hang is Puma's and CRuby 3.3's, not the harness's: Puma 8.0.2 under 3.3.8 pinned to one CPU,
    # started without rubyrig, deadlocked ("No live threads left") in 8 of 30 TERMs; on the system Ruby 3.1.2 it never has.
    system_trials = trials.select { |t| t.runtime == "system" }
    assert(system_trials.none? { |t| t.warnings.to_a.any? { |w| w.include?("did not exit cleanly") } }, system_trials.map(&:warnings).inspect)

    by_runtime = trials.group_by(&:runtime)
    # A killed server wrote no probe file, so the description comes from the batches that have one.
    assert_match(/ruby 3\.1\./, by_runtime.fetch("system").filter_map { |t| t.facts["description"] }.first)
    assert_match(/ruby 3\.3\.8/, by_runtime.fetch(other).filter_map { |t| t.facts["description"] }.first)
    bundles = store.meta.fetch("bundles")
    assert_equal 2, bundles.size
    refute_equal bundles[0]["lockfile"], bundles[1]["lockfile"], "each runtime installs its own gem set"
    by_runtime.each do |runtime, list|
      lockfile = bundles.find { |b| b["runtime"] == runtime }.fetch("lockfile")
      assert_equal [Digest::SHA256.file(lockfile).hexdigest], list.map { |t| t.facts["lockfile_sha256"] }.uniq
      assert list.all? { |t| t.facts.dig("gems", "puma") }
    end
    assert_match(/processes=2 threads=4/, out)
  end
end
