require "test_helper"

class PlanTest < Minitest::Test
  def experiment(seed: 1, batches: 3)
    Rubyrig::Experiment.from_data({
      "runtimes" => ["a=system", "b=system", "c=system"],
      "workloads" => [{"builtin" => "nbody", "params" => {"steps" => [10, 20]}}],
      "batches" => batches, "seed" => seed
    })
  end

  def test_cells_are_runtimes_times_parameter_combinations
    plan = Rubyrig::Experiment::Plan.build(experiment)
    assert_equal 6, plan.cells.size
    assert_equal ["a | builtin:nbody | steps=10", "b | builtin:nbody | steps=10"], plan.cells.first(2).map(&:key)
    assert_equal 18, plan.batches.size
    assert_equal 18, plan.batches.map(&:id).uniq.size
  end

  # GVL metrics measured apart: one "gvl" batch per cell of the runtimes named, after the measured rounds.
  def test_gvl_apart_adds_one_diagnostic_batch_per_cell_of_those_runtimes
    plan = Rubyrig::Experiment::Plan.build(experiment, gvl_apart: %w[b])
    gvl = plan.batches.select { |b| b.diagnostic == "gvl" }
    assert_equal ["b | builtin:nbody | steps=10", "b | builtin:nbody | steps=20"], gvl.map { |b| b.cell.key }.sort
    assert_equal [4], gvl.map(&:round).uniq
    assert(gvl.all? { |b| b.id.match?(Rubyrig::Experiment::Plan::ID_PATTERN) })
    assert_equal plan.batches.map(&:id), Rubyrig::Experiment::Plan.from_h(JSON.parse(JSON.generate(plan.to_h))).batches.map(&:id)
    assert_empty Rubyrig::Experiment::Plan.build(experiment).batches.select(&:diagnostic)
  end

  def test_every_round_runs_every_cell_once_so_batches_interleave
    plan = Rubyrig::Experiment::Plan.build(experiment)
    plan.batches.each_slice(6).with_index(1) do |round, number|
      assert_equal plan.cells.map(&:index).sort, round.map { |b| b.cell.index }.sort
      assert(round.all? { |b| b.round == number })
    end
  end

  def test_the_order_is_random_but_reproducible_from_the_seed
    first = Rubyrig::Experiment::Plan.build(experiment(seed: 5)).batches.map(&:id)
    again = Rubyrig::Experiment::Plan.build(experiment(seed: 5)).batches.map(&:id)
    other = Rubyrig::Experiment::Plan.build(experiment(seed: 6)).batches.map(&:id)
    assert_equal first, again
    refute_equal first, other
    refute_equal first.sort, first, "a shuffled order differs from the sorted one"
  end

  def test_every_cell_runs_in_every_position_once_per_block_of_rounds
    plan = Rubyrig::Experiment::Plan.build(experiment(seed: 7, batches: 12))
    positions = Hash.new { |h, k| h[k] = [] }
    plan.batches.each_slice(6) { |round| round.each_with_index { |b, i| positions[b.cell.index] << i } }
    positions.each_value { |seen| assert_equal ((0..5).to_a * 2).sort, seen.sort }
    blocks = plan.batches.each_slice(36).map { |block| block.first(6).map { |b| b.cell.index } }
    refute_equal blocks[0], blocks[1], "each block of rounds starts from its own shuffled order"
  end

  def test_two_cells_alternate_positions_and_added_rounds_continue_the_blocks
    two = Rubyrig::Experiment.from_data({"runtimes" => ["a=system", "b=system"],
      "workloads" => [{"builtin" => "nbody"}], "batches" => 3, "seed" => 11})
    plan = Rubyrig::Experiment::Plan.build(two).extended(6)
    firsts = plan.batches.each_slice(2).map { |round| round.first.cell.index }
    firsts.each_slice(2) { |a, b| refute_equal a, b, "rounds #{firsts.inspect} alternate who runs first" }
  end

  def test_round_trip_through_the_recorded_form
    plan = Rubyrig::Experiment::Plan.build(experiment)
    copy = Rubyrig::Experiment::Plan.from_h(JSON.parse(JSON.generate(plan.to_h)))
    assert_equal plan.batches.map(&:id), copy.batches.map(&:id)
    assert_equal plan.cells.map(&:key), copy.cells.map(&:key)
  end

  # Batch ids name artifact folders (emptied when a batch is measured again), so a recorded plan whose
  # ids could point outside the run is refused rather than followed.
  def test_a_recorded_plan_with_an_id_rubyrig_never_writes_is_refused
    plan = Rubyrig::Experiment::Plan.build(experiment).to_h
    assert(plan[:order].all? { |b| b[:id].match?(Rubyrig::Experiment::Plan::ID_PATTERN) })
    data = JSON.parse(JSON.generate(plan))
    data["order"][2]["id"] = "../../home"
    e = assert_raises(Rubyrig::StoreError) { Rubyrig::Experiment::Plan.from_h(data) }
    assert_equal 'the plan in run.json holds the batch id "../../home", which rubyrig never writes; run.json is damaged', e.message
  end

  def test_remaining_skips_batches_that_have_a_trial
    plan = Rubyrig::Experiment::Plan.build(experiment)
    done = plan.batches.first(4).map { |b| Rubyrig::Results::Trial.new(batch_id: b.id, status: "failed") }
    remaining = plan.remaining(done)
    assert_equal 14, remaining.size
    assert_equal plan.batches.drop(4), remaining
  end
end
