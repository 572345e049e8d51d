# Runs a Ruby file in the target runtime through an in-process harness chosen for how the file is
# written (ScriptForm): rubyrig's own (per-iteration times from Rubyrig.bench, warmup kept apart, or
# the whole script body timed as one run), ruby-bench's contract (run_benchmark, use_gemfile,
# WARMUP_ITRS, MIN_BENCH_ITRS, MIN_BENCH_TIME, swapped in through the load path), or benchmark-ips
# (each x.report item measured on its own). The target may also be a checkout of ruby-bench, whose
# `bench` parameter names the benchmark of each cell. Interpreter boot is measured apart; arguments
# after the file reach the script's ARGV; the runtime's flags reach every Ruby the script starts.
module Rubyrig
  module Drivers
    class Script < Base
      RUBY_BENCH_HARNESS_DIR = File.expand_path("../probe/ruby_bench", __dir__)
      BENCHMARK_IPS_DIR = File.expand_path("../probe/benchmark_ips", __dir__)
      # ruby-bench's harness defaults; an experiment's `iterations:` also sets MIN_BENCH_TIME to 0, as
      # ruby-bench's own `run_benchmarks.rb --bench N` does.
      RUBY_BENCH_DEFAULTS = {"WARMUP_ITRS" => 15, "MIN_BENCH_ITRS" => 10, "MIN_BENCH_TIME" => 10}.freeze
      # The parameter that names the benchmark of a ruby-bench checkout, and the one of a benchmark-ips item.
      BENCH_PARAM = "bench"
      ITEM_PARAM = "item"

      def self.option_keys = %w[args harness duration_s warmup_s]

      def self.load_options(entry, _builtin, fail, target = nil)
        args = entry["args"]
        valid = args.nil? || (args.is_a?(Array) && args.all? { |a| a.is_a?(String) || a.is_a?(Numeric) })
        fail.call(["args"], "must be a list of arguments for the script's ARGV, e.g. [2, 50000]") unless valid
        options = {"args" => Array(args).map(&:to_s), "harness" => harness(entry, target, fail)}
        check_suite(entry, target, fail) if target && File.directory?(target)
        options.merge(ips_options(entry, options["harness"], fail))
      end

      # `harness:` when given, else what the file is written for; a ruby-bench checkout is ruby-bench's.
      def self.harness(entry, target, fail)
        given = entry["harness"]
        unless given.nil? || ScriptForm::ALL.include?(given)
          fail.call(["harness"], "must be one of #{ScriptForm::ALL.join(", ")}, got #{given.inspect}")
        end
        return given || ScriptForm::RUBY_BENCH if target && File.directory?(target)
        given || (target ? ScriptForm.detect(target) : ScriptForm::RUBYRIG)
      end

      # Every `bench` value must name a benchmark of the checkout.
      def self.check_suite(entry, target, fail)
        names = Array((entry["params"] || {})[BENCH_PARAM])
        if names.empty?
          fail.call(["params"], "needs `#{BENCH_PARAM}` for a ruby-bench checkout: the benchmarks to run, e.g. #{BENCH_PARAM}=fib,nbody,railsbench")
        end
        names.each do |name|
          next if ScriptForm.suite_file(target, name)
          hint = Suggest.hint(name.to_s, ScriptForm.suite_names(target).keys, fallback: "see #{File.join(target, ScriptForm::BENCHMARKS_DIR)}")
          fail.call(["params", BENCH_PARAM], "names '#{name}', which is not a benchmark of #{target}; #{hint}")
        end
      end

      # duration_s and warmup_s (seconds per item) belong to benchmark-ips files, which count time, not iterations.
      def self.ips_options(entry, harness, fail)
        ips = harness == ScriptForm::BENCHMARK_IPS
        %w[duration_s warmup_s].each do |key|
          next if entry[key].nil?
          fail.call([key], "applies to benchmark-ips files only (seconds per item); this file uses the #{harness} harness") unless ips
          valid = entry[key].is_a?(Numeric) && ((key == "warmup_s") ? entry[key] >= 0 : entry[key].positive?)
          fail.call([key], "must be a number of seconds per item, got #{entry[key].inspect}") unless valid
        end
        return {} unless ips
        %w[iterations warmup].each do |key|
          fail.call([key], "does not apply to benchmark-ips files, which measure each item for a time; use duration_s and warmup_s") unless entry[key].nil?
        end
        if (entry["params"] || {}).key?(ITEM_PARAM)
          fail.call(["params", ITEM_PARAM], "is the name rubyrig gives each benchmark-ips item in reports; call the parameter otherwise")
        end
        entry.slice("duration_s", "warmup_s")
      end

      # A Ruby file, or a checkout of ruby-bench (a directory with benchmarks/).
      def self.load_target(value, base_dir, fail)
        fail.call("must be the path of a Ruby file or of a ruby-bench checkout") unless value.is_a?(String)
        path = File.expand_path(value, base_dir)
        return path if File.file?(path) || (File.directory?(path) && ScriptForm.suite?(path))
        if File.directory?(path)
          fail.call("#{value} is a directory without benchmarks/; give the path of a Ruby file or of a ruby-bench checkout")
        end
        fail.call("file #{value} does not exist; give the path of a Ruby file (or of a ruby-bench checkout, a directory with benchmarks/)")
      end

      # ruby-bench's name for its benchmarks (fib, railsbench), the checkout's folder name for a
      # checkout, else the file's name.
      def self.default_name(path)
        return File.basename(path) if File.directory?(path)
        (File.file?(path) && ScriptForm.detect(path) == ScriptForm::RUBY_BENCH) ? ScriptForm.ruby_bench_name(path) : File.basename(path)
      rescue SystemCallError # unreadable: the loader reports it; the name does not matter then
        File.basename(path)
      end

      # A ruby-bench benchmark's folder may hold its Gemfile (use_gemfile installs it in ruby-bench).
      def self.default_gemfile(target)
        return nil if File.directory?(target) || ScriptForm.detect(target) != ScriptForm::RUBY_BENCH
        own_gemfile(target)
      end

      def self.own_gemfile(file)
        path = File.join(File.dirname(file), "Gemfile")
        File.file?(path) ? path : nil
      end

      def self.suite?(workload) = File.directory?(workload.target)

      # The file a cell runs: the workload's, or in a ruby-bench checkout the one its `bench` names.
      def self.file(workload, params)
        suite?(workload) ? ScriptForm.suite_file(workload.target, params.fetch(BENCH_PARAM)) : workload.target
      end

      def self.gemfiles(workload)
        return super unless suite?(workload) && workload.gemfile.nil?
        workload.params.fetch(BENCH_PARAM).filter_map { |name| own_gemfile(ScriptForm.suite_file(workload.target, name)) }.uniq
      end

      def self.gemfile(workload, params)
        return super unless suite?(workload) && workload.gemfile.nil?
        own_gemfile(file(workload, params))
      end

      # The files whose content says whether two runs ran the same benchmarks: a checkout's benchmark
      # files and Gemfiles (not the whole checkout, which its benchmarks write into).
      def self.digest_paths(workload)
        return super unless suite?(workload)
        workload.params.fetch(BENCH_PARAM).to_h do |name|
          path = ScriptForm.suite_file(workload.target, name)
          ["#{BENCH_PARAM}:#{name}", {"file" => path, "gemfile" => own_gemfile(path)}.compact]
        end
      end

      # Rubyrig.bench and ruby-bench give iterations per second (benchmark-ips items too); a script
      # timed as a whole, its run time.
      def self.primary_metrics(_workload) = %w[iterations_per_s run_s]

      def self.primary_metric(workload) = primary_metrics(workload).first

      def self.run_meta(workload, **)
        meta = {"harness" => workload.options["harness"]}
        meta["ruby_bench_env"] = ruby_bench_env(workload) if workload.options["harness"] == ScriptForm::RUBY_BENCH
        meta["benchmark_ips"] = workload.options.slice("duration_s", "warmup_s") if workload.options["harness"] == ScriptForm::BENCHMARK_IPS
        meta
      end

      # What ruby-bench's harness reads, as the batches get it: the experiment's warmup and iterations
      # (iterations without a minimum time), else ruby-bench's defaults.
      def self.ruby_bench_env(workload)
        {
          "WARMUP_ITRS" => workload.warmup || RUBY_BENCH_DEFAULTS["WARMUP_ITRS"],
          "MIN_BENCH_ITRS" => workload.iterations || RUBY_BENCH_DEFAULTS["MIN_BENCH_ITRS"],
          "MIN_BENCH_TIME" => workload.iterations ? 0 : RUBY_BENCH_DEFAULTS["MIN_BENCH_TIME"]
        }.transform_values(&:to_s)
      end

      def run
        process = ProcessRun.new(@context, ruby_root: true)
        outcome = process.run(argv, env: process.env(inherit_flags: true).merge(form_env))
        metrics = outcome.metrics.merge(harness_metrics(outcome.root_probe, process.child))
        items = (outcome.root_probe || {})["items"]
        status = outcome.ok? ? Results::Trial::OK : Results::Trial::FAILED
        reason = outcome.ok? ? nil : outcome.failure_reason
        if status == Results::Trial::OK && !metrics.key?("iterations_per_s") && !metrics.key?("run_s")
          status = Results::Trial::FAILED
          reason = no_timings
        end
        warnings = outcome.warnings
        if status == Results::Trial::OK && form == ScriptForm::BENCHMARK_IPS && items.to_a.empty?
          warnings += ["the file never called Benchmark.ips (or it measured no item), so only its run time is known"]
        end
        Base::Result.new(
          status: status, reason: reason, metrics: metrics, facts: outcome.facts, samples: bench_samples(outcome.root_probe),
          artifacts: %w[stdout.log stderr.log probe], warnings: warnings, items: items && items_of(items)
        )
      end

      def form = @context.workload.options.fetch("harness", ScriptForm::RUBYRIG)

      # The runtime's Ruby with the form's harness: rubyrig's preloaded; ruby-bench's on the load path
      # (and preloaded, so that a benchmark that calls run_benchmark without the loader works too); the
      # benchmark-ips shim on the load path; the gem set set up by use_gemfile in ruby-bench's case.
      def argv
        file = self.class.file(@context.workload, @context.params)
        case form
        when ScriptForm::RUBY_BENCH
          @context.ruby_argv("-I", RUBY_BENCH_HARNESS_DIR, "-r#{File.join(RUBY_BENCH_HARNESS_DIR, "harness.rb")}", file, *args,
            bundler_setup: false)
        when ScriptForm::BENCHMARK_IPS
          @context.ruby_argv("-I", BENCHMARK_IPS_DIR, "-r#{ProcessRun::HARNESS}", "-r#{File.join(BENCHMARK_IPS_DIR, "benchmark", "ips.rb")}",
            file, *args)
        else
          @context.ruby_argv("-r#{ProcessRun::HARNESS}", file, *args)
        end
      end

      def form_env
        workload = @context.workload
        case form
        when ScriptForm::RUBY_BENCH then self.class.ruby_bench_env(workload)
        when ScriptForm::BENCHMARK_IPS
          {"RUBYRIG_IPS_TIME_S" => workload.options["duration_s"]&.to_s, "RUBYRIG_IPS_WARMUP_S" => workload.options["warmup_s"]&.to_s}
        else {}
        end
      end

      # The script's ARGV: the workload's args with "{name}" replaced by the cell's parameter.
      def args
        @context.workload.options.fetch("args", []).map do |arg|
          arg.gsub(/\{(\w+)\}/) { @context.params.fetch(Regexp.last_match(1), Regexp.last_match(0)).to_s }
        end
      end

      private

      def no_timings
        case form
        when ScriptForm::RUBY_BENCH then "the benchmark never finished run_benchmark, so no iteration was timed (see stderr.log)"
        else "the script's harness reported no timings; was it killed before exiting?"
        end
      end

      def harness_metrics(root, child)
        return {} unless root
        m = {}
        # From exec to the moment the probe loaded: the interpreter's boot, RubyGems included.
        started = root["started_at_monotonic"]
        m["boot_s"] = started - child.started_at if started && child&.started_at && started >= child.started_at
        if (bench = root["bench"])
          times = bench["iterations_s"]
          m["iterations_per_s"] = times.size / times.sum if times.any? && times.sum.positive?
          m["warmup_s"] = bench["warmup_s"].sum if bench["warmup_s"].any?
        elsif root["run_s"]
          m["run_s"] = root["run_s"]
        end
        m
      end

      def bench_samples(root)
        bench = root && root["bench"]
        bench ? {"warmup_s" => bench["warmup_s"], "iterations_s" => bench["iterations_s"]} : {}
      end

      # Each benchmark-ips item as the trial keeps it: its name, its metrics, its samples.
      def items_of(list)
        list.map { |i| {"item" => i["item"], "metrics" => i["metrics"], "samples" => i["samples"]} }
      end
    end
  end
end
