# The settings of a capacity search (docs/load-models.md): an http workload in open loop with an
# objective (`slo:`) and no `rate` parameter searches, in each batch, the highest offered rate its server
# sustains; the optional `capacity:` mapping tunes the search. Checked here with the file's line.
module Rubyrig
  module Kinds
    module Http
      module Capacity
        DEFAULTS = {
          "start_rate_per_s" => 10, "growth" => 2, "resolution" => 0.05, "tolerance" => 0.05,
          "step_s" => 5, "warmup_s" => 2, "max_steps" => 30
        }.freeze
        # The metrics of a batch that searched its capacity (Kind.metrics).
        METRICS = [
          {name: "capacity_per_s", unit: "1/s", higher_is_better: true, kind: :resource, rate: true, label: "capacity (highest sustained rate)"},
          {name: "capacity_failed_at_per_s", unit: "1/s", higher_is_better: true, kind: :resource, rate: true, label: "lowest rate not sustained"},
          {name: "capacity_steps", unit: "", higher_is_better: false, kind: :resource, label: "capacity search steps"}
        ].freeze
        # What each setting must be: [check, the words of its error].
        CHECKS = {
          "start_rate_per_s" => [->(v) { v.is_a?(Numeric) && v.positive? }, "a positive rate per second, e.g. 20"],
          "growth" => [->(v) { v.is_a?(Numeric) && v > 1 && v <= 10 }, "a factor above 1 and at most 10, e.g. 2"],
          "resolution" => [->(v) { v.is_a?(Numeric) && v > 0 && v < 1 }, "a fraction above 0 and below 1, e.g. 0.05 for 5%"],
          "tolerance" => [->(v) { v.is_a?(Numeric) && v >= 0 && v < 1 }, "a fraction from 0 to below 1, e.g. 0.05 for 5%"],
          "step_s" => [->(v) { v.is_a?(Integer) && v.positive? }, "a whole positive number of seconds"],
          "warmup_s" => [->(v) { v.is_a?(Integer) && v >= 0 }, "a whole number of seconds, 0 or more"],
          "max_steps" => [->(v) { v.is_a?(Integer) && v >= 2 }, "a whole number of steps, 2 or more"]
        }.freeze
        # The golden ratio's fraction: batch n starts its search at start_rate_per_s × growth^frac(n × this),
        # so that the rates probed spread evenly over the batches (see start_rate_per_s).
        DITHER = (Math.sqrt(5) - 1) / 2

        module_function

        # Whether a workload's batches search their capacity: an objective, open loop, and no offered rate.
        def search?(options, params) = !options["slo"].nil? && options["load_model"] == "open" && !params.key?("rate")

        # The `capacity:` settings with the defaults merged in (nil when the workload does not search),
        # each checked; options: the workload's other options, params: its parameters as given.
        def load(fields, options, params)
          given = fields["capacity"]
          fields.fail(["capacity"], "must be a mapping of #{DEFAULTS.keys.join(", ")}") unless given.nil? || given.is_a?(Hash)
          check_objective(fields, options, params)
          return nil unless search?(options, params)
          child = fields.child(["capacity"], given || {})
          child.check_keys(DEFAULTS.keys, "capacity")
          settings = DEFAULTS.merge(given || {})
          CHECKS.each { |key, (ok, words)| child.fail([key], "must be #{words}, got #{settings[key].inspect}") unless ok.call(settings[key]) }
          settings
        end

        def check_objective(fields, options, params)
          return if options["slo"].nil?
          Objective.load(fields, max_error_rate: options["max_error_rate"])
          unless options["load_model"] == "open"
            fields.fail(["slo"], "needs load_model: open (an objective holds at an offered rate; a closed loop offers none)")
          end
          return unless params.key?("rate") && !fields["capacity"].nil?
          fields.fail(["capacity"], "searches the offered rate, so params must not give rate: remove params.rate or capacity")
        end

        # Batch `number`'s first rate: the start rate times growth^u, u spread evenly over [0, 1) from
        # batch to batch, so that the grid of rates a search can report shifts with each batch and the
        # resolution's rounding averages out over batches instead of biasing every one alike.
        def start_rate_per_s(settings, number)
          u = (number * DITHER) % 1.0
          settings["start_rate_per_s"] * settings["growth"]**u
        end
      end
    end
  end
end
