#!/usr/bin/env ruby
# bench/jobs-overhead/bare.rb: a jobs drain under rubyrig against the same drain with no rubyrig at all,
# interleaved in rounds (the one going first alternates). rubyrig: `rubyrig run` of jobs.rb, one batch,
# its jobs/s from its own per-job records and from Redis's clock (jobs.rb stamps Redis's TIME at the
# first job's start and every job's end). Bare: a redis-server, the same jobs pushed with
# Sidekiq::Client.push_bulk, then a plain `sidekiq -c C -r bare_jobs.rb` with the same gem set, timed
# by the same Redis stamps. Both on the system Ruby.
#   ruby bench/jobs-overhead/bare.rb [ROUNDS]   (default 5)
#   environment: JOBS (10000), CONCURRENCY (10)
$LOAD_PATH.unshift(File.expand_path("../../lib", __dir__))
require "rubyrig"
require "json"
require "psych"
require "tmpdir"
require "rbconfig"

ROOT = File.expand_path("../..", __dir__)
NOOP_GEMFILE = File.join(ROOT, "lib/rubyrig/workloads/sidekiq-noop/Gemfile")
JOBS = Integer(ENV.fetch("JOBS", "10000"))
CONCURRENCY = Integer(ENV.fetch("CONCURRENCY", "10"))
rounds = Integer(ARGV[0] || "5")
cache_dir = ENV.fetch("RUBYRIG_CACHE_DIR") { File.join(Dir.home, ".cache", "rubyrig") }
catalog = Rubyrig::Runtimes::Catalog.new(
  discovery: Rubyrig::Runtimes::Discovery.new(env: ENV.to_h, cache_dir: cache_dir),
  fingerprint: Rubyrig::Runtimes::Fingerprint.new(cache_dir: cache_dir)
)
RUBY = catalog.resolve("system")
BUNDLE = Rubyrig::Runtimes::Bundle.new(cache_dir: cache_dir, interpreter: RUBY, gemfile: NOOP_GEMFILE).install!

def monotonic = Process.clock_gettime(Process::CLOCK_MONOTONIC)

def redis_cli(socket, *args)
  IO.popen(["redis-cli", "-s", socket, *args], &:read).split("\n")
end

def bundled_ruby(*args, env: {}, **options)
  Process.spawn(BUNDLE.env.merge("RUBYOPT" => nil).merge(env), RUBY.path, "-rbundler/setup", *args, **options)
end

# One bare drain: jobs pushed first, then the worker started; jobs/s from Redis's stamps.
def bare_round(dir)
  socket = File.join(dir, "redis.sock")
  redis = Process.spawn("redis-server", "--port", "0", "--unixsocket", socket, "--save", "", "--appendonly", "no", out: File::NULL)
  sleep 0.01 until File.exist?(socket)
  env = {"REDIS_URL" => "unix://#{socket}"}
  jobs_file = File.expand_path("bare_jobs.rb", __dir__)
  push = "require 'sidekiq'; require #{jobs_file.dump}; " \
    "#{JOBS}.times.each_slice(1000) { |s| Sidekiq::Client.push_bulk('class' => BareTimedJob, 'args' => s.map { [] }) }"
  Process.wait(bundled_ruby("-e", push, env: env, out: File::NULL, err: File.join(dir, "push.log")))
  worker = bundled_ruby("-e", 'load Gem.bin_path("sidekiq", "sidekiq")', "--", "-r", jobs_file, "-c", CONCURRENCY.to_s,
    env: env, out: File::NULL, err: File.join(dir, "sidekiq.log"), pgroup: true)
  deadline = monotonic + 300
  sleep 0.05 until redis_cli(socket, "GET", "bench:count").first.to_i >= JOBS || monotonic > deadline
  first, last, count = redis_cli(socket, "MGET", "bench:first", "bench:last", "bench:count")
  abort "bare drain incomplete: #{count} of #{JOBS} (see #{dir}/sidekiq.log)" unless count.to_i == JOBS
  JOBS / (Float(last) - Float(first))
ensure
  [worker, redis].compact.each do |pid|
    Process.kill("TERM", pid)
    Process.wait(pid)
  end
end

def rubyrig_round(dir)
  experiment = {"name" => "jobs-bare", "runtimes" => ["system"], "batches" => 1,
                "workloads" => [{"jobs" => File.expand_path("jobs.rb", __dir__), "gemfile" => NOOP_GEMFILE,
                                 "params" => {"jobs" => JOBS, "concurrency" => CONCURRENCY, "processes" => 1}}]}
  path = File.join(dir, "experiment.yml")
  File.write(path, Psych.dump(experiment))
  results = File.join(dir, "results")
  system(RbConfig.ruby, File.join(ROOT, "exe/rubyrig"), "run", path, "--results", results, out: File::NULL, err: File::NULL) ||
    abort("rubyrig run failed; see #{results}")
  metrics = JSON.parse(File.readlines(File.join(results, "trials.jsonl")).first).fetch("metrics")
  {own: metrics["jobs_per_s"], redis: JOBS / metrics["redis_drain_s"]}
end

harmonic = ->(values) { values.size / values.sum { |v| 1.0 / v } }
load_before = File.read("/proc/loadavg").split.first
rows = Array.new(rounds) do |round|
  order = round.even? ? %i[rubyrig bare] : %i[bare rubyrig]
  row = order.to_h { |tool| [tool, Dir.mktmpdir("rubyrig-jobs-bare") { |dir| (tool == :bare) ? bare_round(dir) : rubyrig_round(dir) }] }
  puts format("round %d: rubyrig %.0f jobs/s by its records, %.0f by Redis's clock; bare %.0f jobs/s by Redis's clock; ratio (Redis's clock) %.4f",
    round + 1, row[:rubyrig][:own], row[:rubyrig][:redis], row[:bare], row[:rubyrig][:redis] / row[:bare])
  row
end
own = harmonic.call(rows.map { |r| r[:rubyrig][:own] })
redis = harmonic.call(rows.map { |r| r[:rubyrig][:redis] })
bare = harmonic.call(rows.map { |r| r[:bare] })
puts format("%d jobs, concurrency %d, one worker process, %s", JOBS, CONCURRENCY, RUBY.description)
puts format("rubyrig %.0f jobs/s (its records), %.0f (Redis's clock); bare %.0f jobs/s (Redis's clock); harmonic means of %d rounds",
  own, redis, bare, rounds)
puts format("ratio rubyrig / bare, both by Redis's clock: %.4f; rubyrig's own figure / bare: %.4f; load %s before, %s after",
  redis / bare, own / bare, load_before, File.read("/proc/loadavg").split.first)
