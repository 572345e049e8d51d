# The keys of a script workload, checked with the file's line and a fix: the file's ARGV (`args:`), the
# harness (detected from the file unless `harness:` names one), the benchmarks of a ruby-bench checkout
# (every `bench` value must be one of its benchmarks), and the seconds per item of a benchmark-ips file.
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
          check_suite(fields, target) if File.directory?(target)
          options.merge(ips_options(fields, options["harness"]))
        end

        # `harness:` when given, else what the file is written for; a ruby-bench checkout is ruby-bench's.
        def harness(fields, target)
          given = fields.one_of("harness", Form::ALL)
          return given || Form::RUBY_BENCH if File.directory?(target)
          given || Form.detect(target)
        end

        # Every `bench` value must name a benchmark of the checkout.
        def check_suite(fields, target)
          bench = Kind::BENCH_PARAM
          names = Array((fields["params"] || {})[bench])
          if names.empty?
            fields.fail(["params"], "needs `#{bench}` for a ruby-bench checkout: the benchmarks to run, e.g. #{bench}=fib,nbody,railsbench")
          end
          names.each do |name|
            next if Form.suite_file(target, name)
            hint = Suggest.hint(name.to_s, Form.suite_names(target).keys, fallback: "see #{File.join(target, Form::BENCHMARKS_DIR)}")
            fields.fail(["params", bench], "names '#{name}', which is not a benchmark of #{target}; #{hint}")
          end
        end

        # duration_s and warmup_s (seconds per item) belong to benchmark-ips files, which count time, not iterations.
        def ips_options(fields, harness)
          ips = harness == Form::BENCHMARK_IPS
          %w[duration_s warmup_s].each do |key|
            next if fields[key].nil?
            fields.fail([key], "applies to benchmark-ips files only (seconds per item); this file uses the #{harness} harness") unless ips
            valid = fields[key].is_a?(Numeric) && ((key == "warmup_s") ? fields[key] >= 0 : fields[key].positive?)
            fields.fail([key], "must be a number of seconds per item, got #{fields[key].inspect}") unless valid
          end
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
