require "test_helper"

# CRuby 3.1 cannot carry GVL hooks and 3.3 can: in a run of both, no measured batch carries them (they
# would tilt the speed comparison on one side), 3.3's GVL metrics come from one diagnostic batch per
# cell, and the report says so.
class GvlApartTest < Minitest::Test
  include SlowTest

  def test_a_run_where_one_runtime_cannot_carry_gvl_hooks_measures_them_apart
    run = File.join(tmpdir, "run")
    status, out, err = run_cli("compare", "-r", "system", "-r", ruby33, "--batches", "2", "--iterations", "2", "--warmup", "1",
      "--param", "increments=200000", "--seed", "3", "--results", run, "--", "builtin:gvl-contention")
    assert_equal 0, status, err
    trials = trial_lines(run)
    measured, apart = trials.partition { |t| t["diagnostic"].nil? }
    assert_equal 4, measured.size
    assert(measured.none? { |t| t["metrics"].key?("gvl_wait_s") }, "no measured batch carries GVL hooks")
    assert_equal [["gvl", ruby33]], apart.map { |t| [t["diagnostic"], t["runtime"]] }
    assert_operator apart.first.dig("metrics", "gvl_wait_s"), :>=, 0
    assert_equal [ruby33], Rubyrig::Processes::TextFile.json(File.join(run, "run.json")).dig("diagnostics", "gvl_apart")
    assert_match(/GVL wait on #{Regexp.escape(ruby33)} comes from one diagnostic batch per cell, apart from the measured batches/, out)
    assert_match(%r{GVL wait / wall\n\s+system\s+n=0\s+n/a.*\n\s+#{Regexp.escape(ruby33)}\s+n=1\s+\d}, out)
  end

  def test_runtimes_that_all_carry_them_measure_them_in_every_batch
    run = File.join(tmpdir, "run")
    status, _, err = run_cli("compare", "-r", ruby33, "-r", "#{ruby33}+yjit", "--batches", "2", "--iterations", "2", "--warmup", "1",
      "--param", "increments=200000", "--seed", "3", "--results", run, "--", "builtin:gvl-contention")
    assert_equal 0, status, err
    trials = trial_lines(run)
    assert(trials.none? { |t| t["diagnostic"] })
    assert(trials.all? { |t| t["metrics"].key?("gvl_wait_s") })
  end
end
