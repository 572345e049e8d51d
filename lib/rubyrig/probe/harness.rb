# Loaded INSIDE the measured process for script workloads: gives scripts Rubyrig.bench and
# Rubyrig.param, times every warmup and measured iteration on the monotonic clock, and hands the
# times to the probe. A script that never calls bench is timed from start to finish as one run.
# Old syntax and standard library only, like the probe: it loads on Ruby 2.5 and later.
# Through the loader, which takes the compiled probe and marks it loaded: Ruby runs this file (given with
# -r on the command line) before the loader that RUBYOPT names, which then has nothing left to do.
require File.expand_path("loader", File.dirname(__FILE__))
require File.expand_path("params", File.dirname(__FILE__))

module Rubyrig
  HARNESS_STARTED_AT = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  @bench_called = false

  class << self
    # The workload's parameters as strings ("threads" => "4").
    def params
      RubyrigParams.all
    end

    # One parameter converted to the type of its default: Rubyrig.param("threads", 1) => 4.
    def param(name, default)
      RubyrigParams.fetch(name, default)
    end

    # Runs the block `warmup` times, then `iterations` times, timing each call. The experiment's
    # iterations and warmup, when given, take precedence over the values in the script.
    def bench(iterations = nil, warmup = nil, **options)
      raise ArgumentError, "Rubyrig.bench may be called once per script" if @bench_called
      raise ArgumentError, "Rubyrig.bench needs a block" unless block_given?
      unknown = options.keys - [:iterations, :warmup]
      unless unknown.empty?
        raise ArgumentError, "unknown keyword: " + unknown.map(&:inspect).join(", ") + "; Rubyrig.bench takes iterations: and warmup:"
      end
      @bench_called = true
      iterations = count("RUBYRIG_ITERATIONS", options.fetch(:iterations, iterations), 10)
      warmup = count("RUBYRIG_WARMUP", options.fetch(:warmup, warmup), 2)
      warmup_s = Array.new(warmup) { |i| time_once(i) { yield(i) } }
      iterations_s = Array.new(iterations) { |i| time_once(warmup + i) { yield(warmup + i) } }
      RubyrigProbe.record(:bench, "warmup_s" => warmup_s, "iterations_s" => iterations_s)
      iterations_s
    end

    def bench_called?
      @bench_called
    end

    private

    def count(env_key, given, fallback)
      from_env = ENV[env_key]
      return Integer(from_env, 10) if from_env && !from_env.empty?
      given.nil? ? fallback : Integer(given)
    end

    def time_once(index)
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      yield
      Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
    end
  end
end

at_exit do
  unless Rubyrig.bench_called?
    RubyrigProbe.record(:run_s, Process.clock_gettime(Process::CLOCK_MONOTONIC) - Rubyrig::HARNESS_STARTED_AT)
  end
end
