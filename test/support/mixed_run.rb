# One real run with every section a report can have, made once per test process and shared by the
# tests that render it: a threads sweep of a script, an HTTP app in two connection modes and two
# thread counts (a processes × threads grid), a Sidekiq drain, a +yjit-mem pair (YJIT memory against
# speed), two benchmarks of a ruby-bench-shaped checkout (the suite section), a GVL-traced and a
# profiled batch per cell.
module MixedRun
  EXPERIMENT = <<~YAML
    name: mixed
    runtimes: ["%<ruby>s+yjit-mem=8", "%<ruby>s+yjit-mem=16"]
    workloads:
      - builtin: gvl-contention
        params: {threads: [1, 2], increments: 100000}
        iterations: 2
        warmup: 1
      - builtin: rack-hello
        params: {connection: [keepalive, close], threads: [1, 2], connections: 2}
        duration_s: 1
        warmup_s: 0
      - builtin: sidekiq-noop
        params: {jobs: 300, concurrency: 5}
      - script: %<suite>s
        params: {bench: [fib, loops]}
        iterations: 2
        warmup: 1
    batches: 2
    seed: 20261123
    trace: gvl
    profile: stackprof
  YAML

  class << self
    attr_accessor :dir
  end

  # The results directory of the run; the first caller makes it (test: a Minitest::Test with the helpers).
  def mixed_run
    return MixedRun.dir if MixedRun.dir
    root = Dir.mktmpdir("rubyrig-mixed")
    Minitest.after_run { FileUtils.rm_rf(root) }
    suite = File.join(RubyrigTest::ROOT, "test/fixtures/ruby_bench_suite")
    experiment = write(root, "mixed.yml", format(EXPERIMENT, ruby: ruby33, suite: suite))
    run = File.join(root, "run")
    status, out, err = run_cli("run", experiment, "--results", run)
    assert_includes [0, 1], status, "#{out}\n#{err}"
    MixedRun.dir = run
  end
end
