# The script kind: a Ruby file run in the target runtime through an in-process harness chosen for how
# it is written (Script::Form): rubyrig's own, ruby-bench's or benchmark-ips's; or a checkout of
# ruby-bench, whose `bench` parameter names the benchmark of each cell. `args:` reach the file's ARGV;
# `harness:` overrides the detected form; benchmark-ips files take `duration_s:` and `warmup_s:`.
module Rubyrig
  module Kinds
    module Script
      module Kind
        extend Contract

        # The parameter that names the benchmark of a ruby-bench checkout, and the one of a benchmark-ips item.
        BENCH_PARAM = "bench"
        ITEM_PARAM = "item"

        def self.kind = "script"

        def self.keys = %w[args harness duration_s warmup_s]

        # Rubyrig.bench and ruby-bench give iterations per second (benchmark-ips items too); a script
        # timed as a whole, its run time.
        def self.primary_metrics = %w[iterations_per_s run_s]

        def self.metrics = [
          {name: "iterations_per_s", unit: "1/s", higher_is_better: true, kind: :speed, rate: true, label: "iterations/s"},
          {name: "run_s", unit: "s", higher_is_better: false, kind: :speed, label: "script run time"},
          {name: "warmup_s", unit: "s", higher_is_better: false, kind: :speed, label: "time to warm up"}
        ]

        def self.driver = Driver

        def self.load(fields, builtin:)
          target = builtin ? builtin.path : target(fields)
          options = Options.load(fields, target)
          return Loaded.new(target: target, options: options) if builtin
          params = File.directory?(target) ? Options.suite_params(fields, target) : nil
          Loaded.new(target: target, options: options, name: default_name(target), gemfile: default_gemfile(target), params: params)
        end

        # A Ruby file, or a checkout of ruby-bench (a directory with benchmarks/).
        def self.target(fields)
          value = fields[selector]
          fields.fail([selector], "must be the path of a Ruby file or of a ruby-bench checkout") unless value.is_a?(String)
          path = fields.path(value)
          return path if File.file?(path) || (File.directory?(path) && Form.suite?(path))
          if File.directory?(path)
            fields.fail([selector], "#{value} is a directory without benchmarks/; give the path of a Ruby file or of a ruby-bench checkout")
          end
          fields.fail([selector], "file #{value} does not exist; give the path of a Ruby file (or of a ruby-bench checkout, a directory with benchmarks/)")
        end

        # A Ruby file is a script whatever follows it (the rest is its ARGV); so is a ruby-bench checkout.
        def self.shortcut(args)
          return {selector => args.first, "args" => args.drop(1)} if args.first.end_with?(".rb")
          {selector => args.first} if args.size == 1 && Form.suite?(args.first)
        end

        def self.run_name(entry) = default_name(File.expand_path(entry[selector]))

        # ruby-bench's name for its benchmarks (fib, railsbench), the checkout's folder name for a
        # checkout, else the file's name.
        def self.default_name(path)
          return File.basename(path) if File.directory?(path)
          (File.file?(path) && Form.detect(path) == Form::RUBY_BENCH) ? Form.ruby_bench_name(path) : File.basename(path)
        rescue SystemCallError # unreadable: the loader reports it; the name does not matter then
          File.basename(path)
        end

        # A ruby-bench benchmark's folder may hold its Gemfile (use_gemfile installs it in ruby-bench).
        def self.default_gemfile(target)
          return nil if File.directory?(target) || Form.detect(target) != Form::RUBY_BENCH
          own_gemfile(target)
        end

        def self.own_gemfile(file)
          path = File.join(File.dirname(file), "Gemfile")
          File.file?(path) ? path : nil
        end

        def self.suite?(workload) = File.directory?(workload.target)

        # The file a cell runs: the workload's, or in a ruby-bench checkout the one its `bench` names.
        def self.file(workload, params)
          suite?(workload) ? Form.suite_file(workload.target, params.fetch(BENCH_PARAM)) : workload.target
        end

        def self.cells_fail_alone?(workload) = suite?(workload)

        def self.gemfile(workload, params)
          return workload.gemfile unless suite?(workload) && workload.gemfile.nil?
          own_gemfile(file(workload, params))
        end

        # The files whose content says whether two runs ran the same benchmarks: a checkout's benchmark
        # files and Gemfiles (not the whole checkout, which its benchmarks write into).
        def self.digest_paths(workload)
          return super unless suite?(workload)
          workload.params.fetch(BENCH_PARAM).to_h do |name|
            path = Form.suite_file(workload.target, name)
            ["#{BENCH_PARAM}:#{name}", {"file" => path, "gemfile" => own_gemfile(path)}.compact]
          end
        end

        # A ruby-bench file also runs with the harness's iteration counts (Driver.ruby_bench_env).
        def self.effective_options(workload)
          options = super
          return options unless options["harness"] == Form::RUBY_BENCH
          options.merge("ruby_bench_env" => Driver.ruby_bench_env(workload))
        end

        def self.run_meta(workload, **)
          harness = workload.options["harness"]
          meta = {"harness" => harness}
          meta["ruby_bench_env"] = workload.options["ruby_bench_env"] if harness == Form::RUBY_BENCH
          meta["suite"] = {"param" => BENCH_PARAM, "categories" => Suite.categories_of(workload.target, workload.params.fetch(BENCH_PARAM))} if suite?(workload)
          meta["benchmark_ips"] = workload.options.slice("duration_s", "warmup_s") if harness == Form::BENCHMARK_IPS
          meta
        end
      end
    end
  end
end
