# Runs a script workload's file in the target runtime through the harness of its form: rubyrig's own
# (per-iteration times from Rubyrig.bench, warmup kept apart, or the whole script body timed as one
# run), ruby-bench's contract (run_benchmark, use_gemfile, WARMUP_ITRS, MIN_BENCH_ITRS, MIN_BENCH_TIME,
# swapped in through the load path), or benchmark-ips (each x.report item measured on its own).
# Interpreter boot is measured apart; arguments after the file reach the script's ARGV; the runtime's
# flags reach every Ruby the script starts.
module Rubyrig
  module Kinds
    module Script
      class Driver
        RUBY_BENCH_HARNESS_DIR = File.expand_path("../../probe/ruby_bench", __dir__)
        BENCHMARK_IPS_DIR = File.expand_path("../../probe/benchmark_ips", __dir__)
        # ruby-bench's harness defaults; an experiment's `iterations:` also sets MIN_BENCH_TIME to 0, as
        # ruby-bench's own `run_benchmarks.rb --bench N` does.
        def self.ruby_bench_defaults = {"WARMUP_ITRS" => 15, "MIN_BENCH_ITRS" => 10, "MIN_BENCH_TIME" => 10}.freeze

        # What ruby-bench's harness reads: the experiment's warmup and iterations (iterations without a
        # minimum time), else ruby-bench's defaults; with duration_s or warmup_s (a suite on a time
        # budget), also the least seconds of measured iterations and the least CPU seconds of warmup
        # (RUBYRIG_BENCH_TIME, RUBYRIG_WARMUP_TIME: rubyrig's harness only), and no minimum time for the whole loop. Taken
        # once per run (Kind.effective_options), so the batches get it from the workload's recorded options.
        def self.ruby_bench_env(workload)
          defaults = ruby_bench_defaults
          duration_s, warmup_s = workload.options.values_at("duration_s", "warmup_s")
          timed = duration_s || warmup_s
          env = {
            "WARMUP_ITRS" => workload.warmup || defaults["WARMUP_ITRS"],
            "MIN_BENCH_ITRS" => workload.iterations || defaults["MIN_BENCH_ITRS"],
            "MIN_BENCH_TIME" => (workload.iterations || timed) ? 0 : defaults["MIN_BENCH_TIME"]
          }
          env["RUBYRIG_BENCH_TIME"] = duration_s if duration_s
          env["RUBYRIG_WARMUP_TIME"] = warmup_s if warmup_s
          env.transform_values(&:to_s)
        end

        def initialize(context)
          @context = context
        end

        def run
          process = Processes::MeasuredRun.new(@context, ruby_root: true)
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
          if status == Results::Trial::OK && form == Form::BENCHMARK_IPS && items.to_a.empty?
            warnings += ["the file never called Benchmark.ips (or it measured no item), so only its run time is known"]
          end
          Result.new(
            status: status, reason: reason, metrics: metrics, facts: outcome.facts, samples: bench_samples(outcome.root_probe),
            artifacts: %w[stdout.log stderr.log probe], warnings: warnings, items: items && items_of(items)
          )
        end

        def form = @context.workload.options.fetch("harness", Form::RUBYRIG)

        # The runtime's Ruby with the form's harness: rubyrig's preloaded; ruby-bench's on the load path
        # (and preloaded, so that a benchmark that calls run_benchmark without the loader works too); the
        # benchmark-ips shim on the load path; the gem set set up by use_gemfile in ruby-bench's case.
        def argv
          file = Kind.file(@context.workload, @context.params)
          case form
          when Form::RUBY_BENCH
            @context.ruby_argv("-I", RUBY_BENCH_HARNESS_DIR, "-r#{File.join(RUBY_BENCH_HARNESS_DIR, "harness.rb")}", file, *args,
              bundler_setup: false)
          when Form::BENCHMARK_IPS
            @context.ruby_argv("-I", BENCHMARK_IPS_DIR, "-r#{Processes::MeasuredRun::HARNESS}", "-r#{File.join(BENCHMARK_IPS_DIR, "benchmark", "ips.rb")}",
              file, *args)
          else
            @context.ruby_argv("-r#{Processes::MeasuredRun::HARNESS}", file, *args)
          end
        end

        def form_env
          workload = @context.workload
          case form
          when Form::RUBY_BENCH then workload.options.fetch("ruby_bench_env")
          when Form::BENCHMARK_IPS
            {"RUBYRIG_IPS_TIME_S" => workload.options["duration_s"]&.to_s, "RUBYRIG_IPS_WARMUP_S" => workload.options["warmup_s"]&.to_s}
          else {}
          end
        end

        # The script's ARGV: the workload's args with "{name}" replaced by the cell's parameter.
        def args = @context.substitute(@context.workload.options.fetch("args", []))

        private

        def no_timings
          case form
          when Form::RUBY_BENCH then "the benchmark never finished run_benchmark, so no iteration was timed (see stderr.log)"
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
end
