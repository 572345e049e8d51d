# Runs a Ruby file in the target runtime through the in-process harness: per-iteration times from
# Rubyrig.bench (warmup kept apart), or the whole script timed as one run.
module Rubyrig
  module Drivers
    class Script < Base
      def self.primary_metric(_workload) = "iterations_per_s"

      def initialize(context)
        @context = context
      end

      def run
        process = ProcessRun.new(@context)
        launch = @context.launch
        setup = @context.bundle_env ? ["-rbundler/setup"] : []
        argv = [launch.interpreter.path, *launch.ruby_flags, *setup, "-r#{ProcessRun::HARNESS}", @context.workload.target]
        outcome = process.run(argv, env: process.env)
        metrics = outcome.metrics.merge(harness_metrics(outcome.root_probe))
        samples = bench_samples(outcome.root_probe)
        status = outcome.ok? ? "ok" : "failed"
        if status == "ok" && !metrics.key?("iterations_per_s") && !metrics.key?("run_s")
          status = "failed"
          reason = "the script's harness reported no timings; was it killed before exiting?"
        end
        Base::Result.new(
          status: status, reason: reason || (outcome.ok? ? nil : outcome.failure_reason),
          metrics: metrics, facts: outcome.facts, samples: samples,
          artifacts: %w[stdout.log stderr.log probe], warnings: outcome.warnings
        )
      end

      private

      def harness_metrics(root)
        return {} unless root
        if (bench = root["bench"])
          times = bench["iterations_s"]
          m = {}
          m["iterations_per_s"] = times.size / times.sum if times.any? && times.sum.positive?
          m["warmup_s"] = bench["warmup_s"].sum if bench["warmup_s"].any?
          m
        elsif root["run_s"]
          {"run_s" => root["run_s"]}
        else
          {}
        end
      end

      def bench_samples(root)
        bench = root && root["bench"]
        bench ? {"warmup_s" => bench["warmup_s"], "iterations_s" => bench["iterations_s"]} : {}
      end
    end
  end
end
