# Real Puma and wrk: a processes x threads grid (1, 2 x 1, 4) of builtin:rack-hello on the system Ruby
# and on CRuby 3.3.8, each runtime from its own gem set; cluster mode must report master and workers.
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
          duration_s: 2
          warmup_s: 1
      batches: 2
      seed: 7
    YAML
    results = File.join(dir, "run")
    status, out, err = run_cli("run", exp, "--results", results)
    assert_equal 0, status, "#{out}\n#{err}"

    store = Rubyrig::Store.open(results)
    trials = store.trials
    assert_equal 16, trials.size
    assert trials.all? { |t| t.status == "ok" }, trials.reject { |t| t.status == "ok" }.map(&:reason).inspect
    assert_equal [[1, 1], [1, 4], [2, 1], [2, 4]], trials.map { |t| [t.params["processes"], t.params["threads"]] }.uniq.sort

    trials.each do |trial|
      processes = trial.params["processes"]
      # Single mode is one Ruby process; cluster mode is the master plus one per worker, each with a probe.
      # Puma on CRuby 3.3 now and then deadlocks in its own graceful stop ("No live threads left"); such
      # a server is killed, writes no probe file, and the batch carries a warning saying so.
      unclean = trial.warnings.to_a.any? { |w| w.include?("did not exit cleanly") }
      assert_equal((processes == 1) ? 1 : processes + 1, trial.facts["ruby_processes"], trial.cell_key) unless unclean
      assert_operator trial.metrics["requests_per_s"], :>, 0
      assert_equal File.read(File.join(results, "artifacts", trial.batch_id, "puma.rb"))[/^threads (\d+)/, 1].to_i, trial.params["threads"]
    end

    assert_operator trials.count { |t| t.warnings.to_a.none? { |w| w.include?("did not exit cleanly") } }, :>=, 12

    by_runtime = trials.group_by(&:runtime)
    assert_match(/ruby 3\.1\./, by_runtime.fetch("system").first.facts["description"])
    assert_match(/ruby 3\.3\.8/, by_runtime.fetch(other).first.facts["description"])
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
