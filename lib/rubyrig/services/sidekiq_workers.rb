# The Sidekiq worker processes of one batch: each is a Processes::MeasuredRun of its own (probe, variant checks,
# Monitor, process group) in artifacts/worker-N. They boot against the full queue but wait at a gate;
# the pool says when all are ready, opens the gate, stops them together and sums their metrics.
require "fileutils"

module Rubyrig
  module Services
    class SidekiqWorkers
      BOOT = File.expand_path("../sidekiq/boot.rb", __dir__)
      # Shutdown grace: Sidekiq's fetch blocks up to 2 s and -t 5 bounds running jobs; a JVM (JRuby) on a
      # busy host has been seen to need more than 10 s to exit after that.
      SHUTDOWN_TIMEOUT_S = 5
      GRACE_S = 30.0
      SUMMED = %w[cpu_user_s cpu_sys_s voluntary_ctx_switches involuntary_ctx_switches peak_rss_bytes
        end_rss_bytes end_pss_bytes gc_count gc_minor_count gc_major_count gc_time_s yjit_code_region_bytes
        yjit_alloc_bytes yjit_compile_time_s].freeze

      attr_reader :runs

      # env: what every worker gets on top of its MeasuredRun environment; control_dir: where the
      # workers say they are ready and where the gate file appears.
      # process_run: the class that runs a measured process tree for a context (Processes::MeasuredRun).
      def initialize(context, process_run:, processes:, concurrency:, env:, control_dir:)
        @context = context
        @process_run = process_run
        @processes = processes
        @concurrency = concurrency
        @env = env
        @control_dir = control_dir
        @runs = []
      end

      def start
        FileUtils.mkdir_p(@control_dir)
        argv = @context.ruby_argv("-e", 'load Gem.bin_path("sidekiq", "sidekiq")',
          "--", "-r", BOOT, "-c", @concurrency.to_s, "-t", SHUTDOWN_TIMEOUT_S.to_s)
        @processes.times do |i|
          dir = File.join(@context.artifacts_dir, "worker-#{i + 1}")
          FileUtils.mkdir_p(dir)
          run = @process_run.new(@context.class.new(**@context.to_h, artifacts_dir: dir), ruby_root: true, early_facts: true)
          @runs << run
          run.start(argv, env: run.env.merge(@env))
        end
        self
      end

      # Monotonic times at which the workers passed Sidekiq's startup event.
      def ready_times
        Dir.glob(File.join(@control_dir, "ready-*")).reject { |f| f.end_with?(".tmp") }.map { |f| Float(File.read(f)) }
      end

      def all_ready? = ready_times.size >= @processes

      # Monotonic time of the first spawn.
      def started_at = @runs.map { |r| r.child.started_at }.min

      # Monotonic time at which the last worker was ready.
      def ready_at = ready_times.max

      # From the first spawn to the moment the last worker was ready.
      def boot_s = ready_at - started_at

      # Opens the gate and returns the monotonic time just before it opened.
      def open_gate
        at = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        go = File.join(@control_dir, "go")
        File.write("#{go}.tmp", at.to_s)
        File.rename("#{go}.tmp", go)
        at
      end

      # The first worker that has exited, with its number, or nil.
      def exited
        index = @runs.index { |r| !r.child.alive? }
        index && [index + 1, @runs[index]]
      end

      # CPU time of every worker tree now (from /proc, 10 ms ticks).
      def cpu_s = @runs.sum { |r| r.monitor.sample&.cpu_s || 0.0 }

      def snapshot = @runs.each(&:snapshot)

      # TERMs every worker at once (Sidekiq then shuts down cleanly) and collects their outcomes.
      def stop
        @runs.each { |r| r.child.signal_group("TERM") }
        @runs.map { |r| r.finish(stopped: true, grace_s: GRACE_S) }
      end

      def abort = @runs.each(&:abort)

      # One set of metrics for the pool: totals over the workers, YJIT's ratio averaged.
      def self.metrics(outcomes)
        all = outcomes.map(&:metrics)
        m = SUMMED.filter_map do |key|
          values = all.filter_map { |x| x[key] }
          [key, values.sum] if values.size == all.size
        end.to_h
        ratios = all.filter_map { |x| x["yjit_ratio_in_yjit"] }
        m["yjit_ratio_in_yjit"] = ratios.sum / ratios.size unless ratios.empty?
        m
      end
    end
  end
end
