# The keys of a script workload, checked with the file's line and a fix: the file's ARGV (`args:`), the
# harness (detected from the file unless `harness:` names one), the benchmarks of a ruby-bench checkout
# (a `bench` value names a benchmark, a category or "all"), and the seconds per item of a benchmark-ips
# file or per batch of a ruby-bench benchmark.
module Rubyrig
  module Kinds
    module Script
      module Options
        module_function

        # fields: the workload entry (Experiment::Fields); target: the file or checkout it runs.
        def load(fields, target)
          args = fields["args"]
          valid = args.nil? || (args.is_a?(Array) && args.all? { |a| a.is_a?(String) || a.is_a?(Numeric) })
          fields.fail(["args"], "must be a list of arguments for the script's ARGV, e.g. [2, 50000]") unless valid
          options = {"args" => Array(args).map(&:to_s), "harness" => harness(fields, target)}
          options.merge(ips_options(fields, options["harness"]))
        end

        # `harness:` when given, else what the file is written for; a ruby-bench checkout is ruby-bench's.
        def harness(fields, target)
          given = fields.one_of("harness", Form::ALL)
          return given || Form::RUBY_BENCH if File.directory?(target)
          given || Form.detect(target)
        end

        # The `bench` parameter of a checkout's workload, expanded (a category or "all" stands for its
        # benchmarks; no `bench` at all means "all"), each a benchmark of the checkout.
        def suite_params(fields, target)
          bench = Kind::BENCH_PARAM
          values = Array((fields["params"] || {}).to_h { |k, v| [k.to_s, v] }.fetch(bench, Suite::ALL))
          names = Suite.expand(target, values)
          names.each do |name|
            next if Form.suite_file(target, name)
            choices = Form.suite_names(target).keys + Suite.category_names(target)
            hint = Suggest.hint(name.to_s, choices, fallback: "see #{File.join(target, Form::BENCHMARKS_DIR)}")
            fields.fail(["params", bench], "names '#{name}', which is neither a benchmark nor a category of #{target}; #{hint}")
          end
          fields.fail(["params", bench], "selects no benchmark of #{target}") if names.empty?
          {bench => names.freeze}
        end

        # duration_s and warmup_s: seconds per item of a benchmark-ips file, which counts time, not
        # iterations; for a ruby-bench benchmark, the least seconds of measured and of warmup iterations
        # per batch (besides their counts), so that each benchmark of a suite takes about the same time.
        def ips_options(fields, harness)
          ips = harness == Form::BENCHMARK_IPS
          timed = ips || harness == Form::RUBY_BENCH
          %w[duration_s warmup_s].each do |key|
            next if fields[key].nil?
            fields.fail([key], "applies to benchmark-ips and ruby-bench files only; this file uses the #{harness} harness") unless timed
            valid = fields[key].is_a?(Numeric) && ((key == "warmup_s") ? fields[key] >= 0 : fields[key].positive?)
            fields.fail([key], "must be a number of seconds, got #{fields[key].inspect}") unless valid
          end
          return fields.hash.slice("duration_s", "warmup_s") if harness == Form::RUBY_BENCH
          return {} unless ips
          %w[iterations warmup].each do |key|
            fields.fail([key], "does not apply to benchmark-ips files, which measure each item for a time; use duration_s and warmup_s") unless fields[key].nil?
          end
          if (fields["params"] || {}).key?(Kind::ITEM_PARAM)
            fields.fail(["params", Kind::ITEM_PARAM], "is the name rubyrig gives each benchmark-ips item in reports; call the parameter otherwise")
          end
          fields.hash.slice("duration_s", "warmup_s")
        end
      end
    end
  end
end
