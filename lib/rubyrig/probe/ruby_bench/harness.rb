# Loaded INSIDE the measured process in place of ruby-bench's harness (ruby/ruby-bench, formerly
# yjit-bench): rubyrig puts this folder first on the load path (`-I`), so the `require "harness"` of
# ruby-bench's harness/loader.rb finds this file, the way `ruby -Iharness-perf ...` swaps harnesses.
# It keeps ruby-bench's harness contract: run_benchmark(hint) { ... } runs WARMUP_ITRS warmup
# iterations, then measured ones until there are at least MIN_BENCH_ITRS and the whole loop has run
# MIN_BENCH_TIME seconds (defaults 15, 10 and 10, from the environment); rubyrig's RUBYRIG_WARMUP_TIME
# and RUBYRIG_BENCH_TIME (default 0) also make warmup last at least that many seconds of the process's
# CPU time (never wall time: on a busy host a wall-clock warmup is one or two iterations of a JIT still
# compiling) and the measured iterations that many seconds, so that a suite on a time budget runs each
# benchmark about as long; use_gemfile runs the
# benchmark's setup command and activates the gem set rubyrig installed for this runtime from the
# benchmark's own Gemfile; make_shareable; the global random generator seeded with 1337. Every
# iteration is timed on the monotonic clock and handed to the probe, warmup apart; nothing is printed.
# Old syntax and standard library only, like the probe: it loads on Ruby 2.5 and later.
require File.expand_path("../probe", File.dirname(__FILE__))

WARMUP_ITRS = Integer(ENV.fetch("WARMUP_ITRS", "15"), 10)
MIN_BENCH_ITRS = Integer(ENV.fetch("MIN_BENCH_ITRS", "10"), 10)
MIN_BENCH_TIME = Float(ENV.fetch("MIN_BENCH_TIME", "10"))
RUBYRIG_WARMUP_TIME = Float(ENV.fetch("RUBYRIG_WARMUP_TIME", "0"))
RUBYRIG_BENCH_TIME = Float(ENV.fetch("RUBYRIG_BENCH_TIME", "0"))

# ruby-bench seeds the global generator so that benchmarks that call rand do the same work each run.
Random.srand(1337)
GC.auto_compact = !!ENV["RUBY_GC_AUTO_COMPACT"] if GC.respond_to?(:auto_compact=)

module RubyrigRubyBench
  class << self
    attr_accessor :ran

    def yjit_enabled?
      (defined?(RubyVM::YJIT) && RubyVM::YJIT.respond_to?(:enabled?)) ? RubyVM::YJIT.enabled? : false
    end

    def now
      Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end

    # The process's CPU time, every thread's (a JIT compiling in the background counts): JRuby has
    # no CLOCK_PROCESS_CPUTIME_ID and gives it through Process.times.
    def cpu_now
      if defined?(Process::CLOCK_PROCESS_CPUTIME_ID)
        Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
      else
        t = Process.times
        t.utime + t.stime
      end
    end

    # Like ruby-bench: YJIT's counters then describe the benchmark, not the code loaded before it.
    # Returns whether YJIT was on.
    def start_yjit
      on = yjit_enabled?
      RubyVM::YJIT.reset_stats! if on && RubyVM::YJIT.respond_to?(:reset_stats!)
      on
    end

    def check_yjit(before)
      return if yjit_enabled? == before
      raise "the benchmark turned YJIT #{before ? "off" : "on"} while it ran; leave YJIT to the runtime (+yjit)"
    end
  end
end

# Runs the block at least once and until the contract's counts and time are reached; the hint (the iterations a
# benchmark suggests for one-shot harnesses) and keywords such as ractor_args: are accepted and, as in
# ruby-bench's default harness, not used.
def run_benchmark(_num_itrs_hint = nil, **_options)
  raise ArgumentError, "run_benchmark needs a block" unless block_given?
  raise ArgumentError, "run_benchmark may be called once per benchmark" if RubyrigRubyBench.ran
  RubyrigRubyBench.ran = true
  yjit_before = RubyrigRubyBench.start_yjit
  warmup = []
  times = []
  warming = WARMUP_ITRS > 0 || RUBYRIG_WARMUP_TIME > 0
  warmup_s = 0.0
  measured_s = 0.0
  cpu_started = RubyrigRubyBench.cpu_now
  loop do
    started = RubyrigRubyBench.now
    yield
    elapsed = RubyrigRubyBench.now - started
    if warming
      warmup << elapsed
      warmup_s += elapsed
      warming = warmup.size < WARMUP_ITRS || RubyrigRubyBench.cpu_now - cpu_started < RUBYRIG_WARMUP_TIME
      next
    end
    times << elapsed
    measured_s += elapsed
    break if times.size >= MIN_BENCH_ITRS && warmup_s + measured_s >= MIN_BENCH_TIME && measured_s >= RUBYRIG_BENCH_TIME
  end
  RubyrigProbe.record(:bench, "warmup_s" => warmup, "iterations_s" => times)
  RubyrigRubyBench.check_yjit(yjit_before)
  warmup + times
end

# The benchmark's directory holds a Gemfile: rubyrig installed it for this runtime before the first
# batch (its environment names the gem set in BUNDLE_GEMFILE), so no `bundle install` runs here. The
# setup command (e.g. "bin/rails db:migrate db:seed") runs as ruby-bench runs it, a command line in
# the current directory, and its Ruby processes get the runtime's flags through RUBYOPT.
def use_gemfile(extra_setup_cmd: nil)
  unless ENV["BUNDLE_GEMFILE"]
    raise "use_gemfile: rubyrig installed no gem set for #{Dir.pwd}; put the Gemfile beside the benchmark or give it with gemfile:"
  end
  if extra_setup_cmd && !system(extra_setup_cmd)
    raise "use_gemfile: the setup command `#{extra_setup_cmd}` failed in #{Dir.pwd}"
  end
  require "bundler"
  Bundler.setup
end

def make_shareable(obj, copy: false)
  defined?(Ractor.make_shareable) ? Ractor.make_shareable(obj, copy: copy) : obj
end
