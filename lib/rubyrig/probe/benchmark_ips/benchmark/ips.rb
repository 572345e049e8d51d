# Loaded INSIDE the measured process in place of the benchmark-ips gem: rubyrig puts the folder above
# first on the load path, so a file's `require "benchmark/ips"` finds this one (the gem need not be
# installed). It keeps the gem's API (Benchmark.ips with time/warmup/quiet, x.config, x.time=,
# x.warmup=, x.iterations=, x.report/x.item with a block, a block taking the iteration count, or a
# code string, x.compare!, x.suite's hooks, Benchmark.ips_quick) and its way of measuring: each item
# warms up for `warmup` seconds, which also finds how many calls take about 100 ms, then runs rounds
# of that many calls for `time` seconds. Instead of printing a report it hands each item's
# iterations per second to the probe, so that rubyrig compares every item across runtimes over its
# batches. x.hold!, x.save! and x.json! are accepted and ignored: every batch measures every item in a
# fresh process. RUBYRIG_IPS_TIME_S and RUBYRIG_IPS_WARMUP_S (from the experiment) override the file.
# Old syntax and standard library only, like the probe: it loads on Ruby 2.5 and later.
require "benchmark"
require File.expand_path("../../probe", File.dirname(__FILE__))

module RubyrigIps
  ROUND_S = 0.1
  # Calls per round stay within a 32-bit signed integer, as the gem's do.
  MAX_CYCLES = 2**31 - 1

  @items = []

  class << self
    # Every item measured so far in this process, in order, under a label unique in the process.
    def record(label, iterations, measured_s, cycles, rounds_s, warmup_s)
      name = label.to_s
      name = name + " #" + (@items.count { |i| i["label"] == label.to_s } + 1).to_s if @items.any? { |i| i["item"] == name }
      @items << {
        "item" => name, "label" => label.to_s,
        "metrics" => {"iterations_per_s" => iterations / measured_s},
        "samples" => {"iterations" => iterations, "measured_s" => measured_s, "cycles" => cycles,
                      "rounds_s" => rounds_s, "warmup_s" => warmup_s}
      }
      RubyrigProbe.record(:items, @items)
    end

    def seconds(env_key, given)
      from_env = ENV[env_key]
      (from_env && !from_env.empty?) ? Float(from_env) : given
    end

    def now
      Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end

module Benchmark
  module IPS
    VERSION = "rubyrig"

    # One measured item's result, for code that reads the report Benchmark.ips returns.
    class Entry
      attr_reader :label, :iterations, :microseconds, :measurement_cycle

      def initialize(label, iterations, microseconds, cycles)
        @label = label
        @iterations = iterations
        @microseconds = microseconds
        @measurement_cycle = cycles
      end

      def seconds
        @microseconds / 1_000_000.0
      end

      def ips
        @iterations / seconds
      end
    end

    # What Benchmark.ips returns: its entries in the order they ran.
    class Report
      attr_reader :entries

      def initialize
        @entries = []
      end

      def data
        @entries.map { |e| {name: e.label, ips: e.ips, iterations: e.iterations, seconds: e.seconds} }
      end
    end

    class Job
      # A labelled piece of code; call_times(n) runs it n times.
      class Item
        attr_reader :label

        def initialize(label, action)
          @label = label
          if action.is_a?(String)
            singleton_class.class_eval("def call_times(rubyrig_count); rubyrig_i = 0; while rubyrig_i < rubyrig_count; #{action}; rubyrig_i += 1; end; end", __FILE__, __LINE__)
          elsif !action.respond_to?(:call)
            raise ArgumentError, "invalid action, must respond to #call"
          else
            @action = action
            @counted = action.respond_to?(:arity) && action.arity > 0
          end
        end

        def call_times(count)
          return @action.call(count) if @counted
          action = @action
          i = 0
          while i < count
            action.call
            i += 1
          end
        end
      end

      attr_accessor :warmup, :time, :iterations, :stats, :confidence
      attr_reader :list, :full_report

      def initialize
        @list = []
        @warmup = 2
        @time = 5
        @iterations = 1
        @stats = :sd
        @confidence = 95
        @quiet = false
        @suites = []
        @compare = false
        @full_report = Report.new
      end

      def config(opts)
        @warmup = opts[:warmup] if opts[:warmup]
        @time = opts[:time] if opts[:time]
        @iterations = opts[:iterations] if opts[:iterations]
        @stats = opts[:stats] if opts[:stats]
        @confidence = opts[:confidence] if opts[:confidence]
        @quiet = opts[:quiet] if opts.key?(:quiet)
        self.suite = opts[:suite] if opts[:suite]
      end

      attr_accessor :quiet

      def suite=(suite)
        @suites << suite
      end

      def compare!(order: :fastest)
        @compare = order
      end

      def compare?
        !!@compare
      end

      def hold!(_path)
        nil
      end

      def save!(_path)
        nil
      end

      def json!(_path = "data.json")
        nil
      end

      def item(label = "", str = nil, &blk)
        raise ArgumentError, "specify a block and a str, but not both" if blk && str
        action = str || blk
        raise ArgumentError, "no block or string" unless action
        @list << Item.new(label, action)
        self
      end
      alias_method :report, :item

      # Each item as the gem runs it: every warmup pass, then every measured pass; the last measured
      # pass of an item is its result.
      def run
        warmup_s = RubyrigIps.seconds("RUBYRIG_IPS_WARMUP_S", @warmup).to_f
        time_s = RubyrigIps.seconds("RUBYRIG_IPS_TIME_S", @time).to_f
        cycles, warmed = warm_all(warmup_s)
        hook(:start_running)
        results = {}
        @iterations.times do
          @list.each do |item|
            hook(:running, item.label, time_s)
            results[item] = measure(item, cycles[item] || 1, time_s)
          end
        end
        @list.each { |item| report_item(item, results[item], cycles[item] || 1, warmed[item] || 0.0) }
        hook(:footer)
        @full_report
      end

      private

      # Every warmup pass of every item: the calls per round each settled on, and its warmup's seconds.
      def warm_all(warmup_s)
        cycles = {}
        warmed = {}
        hook(:start_warming)
        @iterations.times do
          @list.each do |item|
            hook(:warming, item.label, warmup_s)
            started = RubyrigIps.now
            cycles[item] = warm(item, warmup_s)
            warmed[item] = RubyrigIps.now - started
            hook(:warmup_stats, warmed[item] * 1_000_000, cycles[item])
          end
        end
        [cycles, warmed]
      end

      # Hands an item's last measured pass to the probe and to the gem's report.
      def report_item(item, result, cycles, warmed_s)
        rounds, count, total_s = result
        RubyrigIps.record(item.label, count, total_s, cycles, rounds, warmed_s)
        entry = Entry.new(item.label, count, total_s * 1_000_000, cycles)
        @full_report.entries << entry
        hook(:add_report, entry, caller(2..2).first)
      end

      # Doubles the calls per round for half the warmup, then runs rounds of about 100 ms for the rest;
      # returns the calls per round that take about 100 ms (1 without warmup).
      def warm(item, warmup_s)
        return 1 unless warmup_s > 0
        started = RubyrigIps.now
        count = 1
        per_call_s = nil
        loop do
          t0 = RubyrigIps.now
          item.call_times(count)
          elapsed = RubyrigIps.now - t0
          per_call_s = elapsed / count if elapsed > 0
          break if count >= RubyrigIps::MAX_CYCLES
          break if RubyrigIps.now + elapsed * 2 >= started + warmup_s / 2.0
          count *= 2
        end
        cycles = per_call_s ? (RubyrigIps::ROUND_S / per_call_s).to_i : RubyrigIps::MAX_CYCLES
        cycles = cycles.clamp(1, RubyrigIps::MAX_CYCLES)
        item.call_times(cycles) while RubyrigIps.now + RubyrigIps::ROUND_S < started + warmup_s
        cycles
      end

      # Rounds of `cycles` calls until time_s has passed (at least one); a round the clock could not
      # see is not counted, as in the gem.
      def measure(item, cycles, time_s)
        rounds = []
        deadline = RubyrigIps.now + time_s
        loop do
          t0 = RubyrigIps.now
          item.call_times(cycles)
          elapsed = RubyrigIps.now - t0
          rounds << elapsed if elapsed > 0
          break if RubyrigIps.now >= deadline && !rounds.empty?
        end
        [rounds, rounds.size * cycles, rounds.inject(0.0) { |a, b| a + b }]
      end

      def hook(name, *args)
        @suites.each { |s| s.public_send(name, *args) if s.respond_to?(name) }
      end
    end

    # Benchmark.ips(time, warmup, quiet) or Benchmark.ips(time: 5, warmup: 2, quiet: true).
    def ips(*args)
      time, warmup, quiet = args.first.is_a?(Hash) ? args.first.values_at(:time, :warmup, :quiet) : args
      job = Job.new
      opts = {}
      opts[:time] = time unless time.nil?
      opts[:warmup] = warmup unless warmup.nil?
      opts[:quiet] = quiet unless quiet.nil?
      job.config(opts)
      yield job
      job.run
    end

    # Compares methods called on one receiver: Benchmark.ips_quick(:upcase, :downcase, on: "hello").
    def ips_quick(*methods, on: Kernel, **opts)
      ips(opts) do |x|
        x.compare!
        methods.each do |name|
          x.report(name) { |count| count.times { on.__send__(name) } }
        end
      end
    end
  end

  extend Benchmark::IPS
end
