require "test_helper"

# Shards: parsing --shard K/N and auto from each scheduler's variables, shares of the batches, and
# shard plans whose batch ids stay unique across the shards of a run.
class ShardTest < Minitest::Test
  Shard = Rubyrig::Experiment::Shard

  def experiment(batches: 5)
    Rubyrig::Experiment.from_data({"runtimes" => ["a=system", "b=system"], "workloads" => [{"builtin" => "nbody"}],
                                   "batches" => batches, "seed" => 11})
  end

  def test_k_of_n_counts_from_one
    shard = Shard.parse("2/4", env: {})
    assert_equal [2, 4], [shard.index, shard.count]
    assert_raises(Rubyrig::UsageError) { Shard.parse("0/4", env: {}) }
    assert_raises(Rubyrig::UsageError) { Shard.parse("5/4", env: {}) }
    error = assert_raises(Rubyrig::UsageError) { Shard.parse("two", env: {}) }
    assert_match(/--shard must be K\/N/, error.message)
  end

  def test_auto_reads_each_scheduler
    assert_equal [1, 3], Shard.parse("auto/3", env: {"JOB_COMPLETION_INDEX" => "0"}).to_a
    assert_equal [2, 2], Shard.parse("auto", env: {"CI_NODE_INDEX" => "2", "CI_NODE_TOTAL" => "2"}).to_a
    assert_equal [4, 5], Shard.parse("auto", env: {"BUILDKITE_PARALLEL_JOB" => "3", "BUILDKITE_PARALLEL_JOB_COUNT" => "5"}).to_a
  end

  def test_auto_says_what_is_missing
    assert_match(/no shard index in the environment/, assert_raises(Rubyrig::UsageError) { Shard.parse("auto", env: {}) }.message)
    assert_match(/auto\/N/, assert_raises(Rubyrig::UsageError) { Shard.parse("auto", env: {"JOB_COMPLETION_INDEX" => "1"}) }.message)
    error = assert_raises(Rubyrig::UsageError) { Shard.parse("auto/3", env: {"CI_NODE_INDEX" => "1", "CI_NODE_TOTAL" => "2"}) }
    assert_match(/disagrees with CI_NODE_TOTAL=2/, error.message)
  end

  def test_shares_add_up_and_batch_numbers_follow_each_other
    shards = (1..3).map { |k| Shard.new(index: k, count: 3) }
    assert_equal [3, 3, 2], shards.map { |s| s.batches(8) }
    assert_equal [1, 4, 7], shards.map { |s| s.first_number(8) }
    assert_equal 3, shards.map { |s| s.seed(11) }.uniq.size
    assert_equal shards.first.seed(11), Shard.new(index: 1, count: 3).seed(11)
  end

  def test_shard_plans_have_every_cell_and_unique_batch_ids
    plans = (1..2).map { |k| Rubyrig::Experiment::Plan.build(experiment, shard: Shard.new(index: k, count: 2)) }
    assert_equal [6, 4], plans.map { |p| p.batches.size }
    assert(plans.all? { |p| p.cells.size == 2 && p.batches.map(&:cell).uniq.size == 2 })
    ids = plans.flat_map { |p| p.batches.map(&:id) }
    assert_equal ids.uniq, ids
    assert_equal %w[c0-b1 c0-b2 c0-b3 c0-b4 c0-b5], ids.grep(/\Ac0-/).sort
    assert_equal [1, 2], plans.map { |p| p.batches.map(&:shard).uniq }.flatten
    refute_equal plans[0].seed, plans[1].seed
    assert_equal plans[1].to_h, Rubyrig::Experiment::Plan.from_h(JSON.parse(JSON.generate(plans[1].to_h))).to_h
  end

  def test_run_refuses_a_shard_without_a_seed_or_with_too_few_batches
    dir = tmpdir
    file = write(dir, "exp.yml", "runtimes: [system]\nworkloads: [{builtin: nbody}]\nbatches: 3\n")
    status, _, err = run_cli("run", file, "--shard", "1/2")
    assert_equal 2, status
    assert_match(/--shard needs the run's seed.*--seed N/, err)
    status, _, err = run_cli("run", file, "--shard", "2/2", "--seed", "4")
    assert_equal 2, status
    assert_match(/shard 2\/2 would run 1 of 3 batches per cell.*raise batches to 4/, err)
    status, _, err = run_cli("run", file, "--shard", "1/2", "--seed", "4", "--batches", "4", "--until", "decided")
    assert_equal 2, status
    assert_match(/drop --until decided/, err)
    assert_equal 1, err.lines.size
  end
end
