# Where an http cell's latency figures came from, for every report format: the load model that measured
# them, as each batch recorded it (facts.load, e.g. "open loop (httperf, 100/s Poisson)"; older runs
# name only the generator), and how many of their samples the generator synthesized itself (wrk's
# coordinated-omission correction): "closed loop (wrk, 8 connections); 1200 of 9800 latency samples
# synthesized by the generator (12%, median batch)". Pure.
module Rubyrig
  module Kinds
    module Http
      module LatencyProvenance
        module_function

        # The words for a cell's batches (Results::Trial), or nil when none says how it was measured.
        def describe(trials)
          loads = trials.filter_map { |t| t.facts.to_h["load"] || t.facts.to_h["load_generator"] }.uniq
          return nil if loads.empty?
          "#{loads.join(", ")}; #{synthesized(trials)}"
        end

        # "no latency sample synthesized", or the median batch's count and share of synthesized samples.
        def synthesized(trials)
          counts = trials.filter_map do |t|
            count = t.metrics["latency_synthesized_count"]
            [count, count + t.metrics["request_count"].to_i] if count.is_a?(Numeric)
          end
          return "synthesized latency samples not counted" if counts.empty?
          return "no latency sample synthesized" if counts.all? { |count, _| count.zero? }
          count, total = counts.sort_by { |c, t| t.positive? ? c.fdiv(t) : 0.0 }[(counts.size - 1) / 2]
          format("%d of %d latency samples synthesized by the generator (%.0f%%, median batch)", count, total, 100.0 * count / total)
        end
      end
    end
  end
end
