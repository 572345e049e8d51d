# Runs a Ruby file in the target runtime through the in-process harness: per-iteration times from
# Rubyrig.bench (warmup kept apart), or the whole script body timed as one run; interpreter boot is
# measured apart in both cases. Arguments after the file reach the script's ARGV.
module Rubyrig
  module Drivers
    class Script < Base
      def self.option_keys = %w[args]

      def self.load_options(entry, _builtin, fail)
        args = entry["args"]
        return {"args" => []} if args.nil?
        valid = args.is_a?(Array) && args.all? { |a| a.is_a?(String) || a.is_a?(Numeric) }
        fail.call(["args"], "must be a list of arguments for the script's ARGV, e.g. [2, 50000]") unless valid
        {"args" => args.map(&:to_s)}
      end

      # Rubyrig.bench gives iterations per second; a script without it is measured by its run time.
      def self.primary_metrics(_workload) = %w[iterations_per_s run_s]

      def self.primary_metric(workload) = primary_metrics(workload).first

      def run
        process = ProcessRun.new(@context, ruby_root: true)
        argv = @context.ruby_argv("-r#{ProcessRun::HARNESS}", @context.workload.target, *args)
        outcome = process.run(argv, env: process.env)
        metrics = outcome.metrics.merge(harness_metrics(outcome.root_probe, process.child))
        samples = bench_samples(outcome.root_probe)
        status = outcome.ok? ? Trial::OK : Trial::FAILED
        if status == Trial::OK && !metrics.key?("iterations_per_s") && !metrics.key?("run_s")
          status = Trial::FAILED
          reason = "the script's harness reported no timings; was it killed before exiting?"
        end
        Base::Result.new(
          status: status, reason: reason || (outcome.ok? ? nil : outcome.failure_reason),
          metrics: metrics, facts: outcome.facts, samples: samples,
          artifacts: %w[stdout.log stderr.log probe], warnings: outcome.warnings
        )
      end

      # The script's ARGV: the workload's args with "{name}" replaced by the cell's parameter.
      def args
        @context.workload.options.fetch("args", []).map do |arg|
          arg.gsub(/\{(\w+)\}/) { @context.params.fetch(Regexp.last_match(1), Regexp.last_match(0)).to_s }
        end
      end

      private

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
    end
  end
end
