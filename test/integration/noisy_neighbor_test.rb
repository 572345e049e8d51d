require "test_helper"

# builtin:gvl-noisy-neighbor on the system Ruby: a request thread alone serves more requests per second
# than next to a CPU-bound thread, and the sweep table says so with a CI.
class NoisyNeighborTest < Minitest::Test
  include SlowTest

  def test_alone_is_faster_than_next_to_a_cpu_bound_thread
    dir = tmpdir
    run = File.join(dir, "run")
    status, out, err = run_cli("compare", "-r", "system", "--batches", "3", "--iterations", "60", "--warmup", "10",
      "--param", "mode=alone,thread", "--results", run, "--", "builtin:gvl-noisy-neighbor")
    assert_equal 0, status, err
    assert_match(/Sweep over mode · builtin:gvl-noisy-neighbor/, out)
    report = Rubyrig::Analysis.new.analyze(meta: Rubyrig::Results::Store.open(run).meta, trials: Rubyrig::Results::Store.open(run).trials)
    table = report.sweeps.find { |t| t.param == "mode" }
    alone, thread = table.rows.map { |r| r.cells.fetch("system") }
    assert_operator alone.median, :>, thread.median
    assert_operator thread.ratio, :<, 1.0
    assert_operator thread.comparison.ci[1], :<, 1.0, "the CI of thread/alone lies below 1"
  end
end
