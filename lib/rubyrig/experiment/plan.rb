# Expands an experiment into cells and batches, in a seeded random interleaved order: each round runs
# every cell once, so that drift on the host spreads evenly over the runtimes, and every cell takes
# every position in a round equally often, so that an effect of running first or second cancels. A trace or a
# profile adds one diagnostic batch per cell after the measured rounds, and so do GVL metrics for the cells
# of the runtimes that carry them when another runtime cannot; those are never in statistics.
# A shard's plan has every cell, its share of the rounds, its own seed and batch numbers that no other
# shard of the run uses, so that merged shards keep unique batch ids.
module Rubyrig
  class Experiment
    class Plan
      # One measurement of a cell in fresh processes; the unit of statistics.
      Batch = Struct.new(:id, :cell, :number, :round, :diagnostic, :shard, keyword_init: true) do
        def to_h = {id: id, cell: cell.index, number: number, round: round, diagnostic: diagnostic, shard: shard}.compact
      end

      # Every batch id a plan makes ("c3-b12", "c0-trace", "c1-profile-s2"); ids name artifact folders, so
      # one read back from a results directory must have this shape before it becomes a path.
      ID_PATTERN = /\Ac\d+-(?:b\d+|trace|profile|gvl)(?:-s\d+)?\z/

      attr_reader :cells, :batches, :seed

      # effective: (workload, params) -> the parameters with the driver's defaults merged, recorded per
      # cell so that a report never depends on today's defaults. shard: a Shard, or nil for a whole run.
      # gvl_apart: the runtime labels whose GVL metrics come from a diagnostic batch of their own.
      def self.build(experiment, effective: ->(_workload, params) { params }, shard: nil, gvl_apart: [])
        cells = []
        experiment.workloads.each do |workload|
          workload.param_combinations.each do |params|
            experiment.runtimes.each do |runtime|
              cells << Cell.new(index: cells.size, runtime: runtime.label, workload: workload.name, params: params,
                effective_params: effective.call(workload, params)).freeze
            end
          end
        end
        rounds = shard ? shard.batches(experiment.batches) : experiment.batches
        first = shard ? shard.first_number(experiment.batches) : 1
        seed = shard ? shard.seed(experiment.seed) : experiment.seed
        rng = Random.new(seed)
        batches = (1..rounds).flat_map do |round|
          number = first + round - 1
          round_order(cells, seed, round).map do |cell|
            Batch.new(id: "c#{cell.index}-b#{number}", cell: cell, number: number, round: round, shard: shard&.index).freeze
          end
        end
        kinds = [gvl_apart.empty? ? nil : "gvl", experiment.trace && "trace", experiment.profile && "profile"].compact
        new(cells, batches + diagnostic_batches(kinds, cells, rounds, rng, shard, gvl_apart), seed)
      end

      # One round per diagnostic kind after the measured rounds, a batch per cell (a "gvl" batch only
      # for the cells of the runtimes measured apart).
      def self.diagnostic_batches(kinds, cells, rounds, rng, shard, gvl_apart)
        kinds.each_with_index.flat_map do |kind, i|
          cells.shuffle(random: rng).filter_map do |cell|
            next if kind == "gvl" && !gvl_apart.include?(cell.runtime)
            Batch.new(id: "c#{cell.index}-#{kind}#{"-s#{shard.index}" if shard}", cell: cell, number: 0, round: rounds + i + 1,
              diagnostic: kind, shard: shard&.index).freeze
          end
        end
      end

      # The cells in the order round `round` runs them: each block of as many rounds as there are cells
      # takes one order shuffled with a generator seeded from the seed and the block, rotated by one cell
      # a round, so that within a block every cell runs once in every position (with two cells, the
      # rounds alternate AB and BA). A cell that always ran second would carry a warm-cache or
      # cool-CPU effect of its position into its comparison (docs/statistics.md, "A position effect").
      def self.round_order(cells, seed, round)
        block, offset = (round - 1).divmod([cells.size, 1].max)
        cells.shuffle(random: Random.new(seed.to_i * 1009 + block)).rotate(offset)
      end

      # The plan exactly as recorded in a run's metadata.
      def self.from_h(hash)
        cells = hash.fetch("cells").map do |c|
          Cell.new(index: c["index"], runtime: c["runtime"], workload: c["workload"], params: c["params"],
            effective_params: c["effective_params"]).freeze
        end
        batches = hash.fetch("order").map do |b|
          unless b["id"].is_a?(String) && b["id"].match?(ID_PATTERN)
            raise StoreError, "the plan in run.json holds the batch id #{b["id"].inspect}, which rubyrig never writes; run.json is damaged"
          end
          Batch.new(id: b["id"], cell: cells.fetch(b["cell"]), number: b["number"], round: b["round"],
            diagnostic: b["diagnostic"], shard: b["shard"]).freeze
        end
        new(cells, batches, hash["seed"])
      end

      def initialize(cells, batches, seed)
        @cells = cells.freeze
        @batches = batches.freeze
        @seed = seed
      end

      # The measured rounds planned so far.
      def rounds = batches.reject(&:diagnostic).map(&:round).max || 0

      # The plan with measured rounds added up to `to_round` (--until decided), each round every cell
      # once in the order `round_order` gives, so that the same run gets the same order and positions
      # stay balanced; diagnostic batches stay last.
      def extended(to_round)
        measured, diagnostic = batches.partition { |b| b.diagnostic.nil? }
        added = ((rounds + 1)..to_round).flat_map do |round|
          Plan.round_order(cells, seed, round).map do |cell|
            Batch.new(id: "c#{cell.index}-b#{round}", cell: cell, number: round, round: round).freeze
          end
        end
        moved = diagnostic.each_with_index.map do |b, i|
          Batch.new(id: b.id, cell: b.cell, number: b.number, round: to_round + 1 + i / [cells.size, 1].max, diagnostic: b.diagnostic,
            shard: b.shard).freeze
        end
        Plan.new(cells, measured + added + moved, seed)
      end

      # Batches that have no trial yet, in plan order.
      def remaining(trials)
        done = trials.map(&:batch_id).to_h { |id| [id, true] }
        batches.reject { |b| done[b.id] }
      end

      def to_h = {seed: seed, cells: cells.map(&:to_h), order: batches.map(&:to_h)}
    end
  end
end
