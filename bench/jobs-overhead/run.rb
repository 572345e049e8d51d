#!/usr/bin/env ruby
# bench/jobs-overhead: checks the drain time rubyrig measures (its middleware's per-job records on the
# monotonic clock) against an independent timing of the same jobs (Redis's TIME and INCR, stamped by
# the jobs themselves, see jobs.rb), batch by batch, and measures what the recorder adds to a job.
#   ruby bench/jobs-overhead/run.rb [RUNTIME...]     (default: system)
#   environment: JOBS (10000), CONCURRENCY (10), PROCESSES (1), BATCHES (5), RESULTS (a temporary dir)
$LOAD_PATH.unshift(File.expand_path("../../lib", __dir__))
require "rubyrig"
require "json"
require "psych"
require "tmpdir"

NOOP_GEMFILE = File.expand_path("../../lib/rubyrig/workloads/sidekiq-noop/Gemfile", __dir__)
runtimes = ARGV.empty? ? ["system"] : ARGV
dir = Dir.mktmpdir("rubyrig-jobs-overhead-")
results = ENV.fetch("RESULTS") { File.join(dir, "results") }
experiment = {
  "name" => "jobs-overhead",
  "runtimes" => runtimes,
  "workloads" => [{
    "jobs" => File.expand_path("jobs.rb", __dir__), "gemfile" => NOOP_GEMFILE,
    "params" => %w[jobs concurrency processes].to_h { |k| [k, Integer(ENV.fetch(k.upcase, {"jobs" => "10000", "concurrency" => "10", "processes" => "1"}[k]))] }
  }],
  "batches" => Integer(ENV.fetch("BATCHES", "5"))
}
path = File.join(dir, "experiment.yml")
File.write(path, Psych.dump(experiment))
Rubyrig::CLI.new(["run", path, "--results", results]).run

meta = JSON.parse(File.read(File.join(results, "run.json")))
trials = File.readlines(File.join(results, "trials.jsonl")).map { |line| JSON.parse(line) }
puts "\nDrain time: rubyrig's records vs Redis's clock (same jobs, same batch)"
puts "runtime        batch     jobs/s    drain_s redis_drain_s    ratio"
ratios = Hash.new { |h, k| h[k] = [] }
trials.each do |t|
  m = t["metrics"]
  unless t["status"] == "ok" && m["redis_drain_s"]
    puts format("%-14s %5d  failed: %s", t["runtime"], t["batch"], t["reason"])
    next
  end
  ratio = m["drain_s"] / m["redis_drain_s"]
  ratios[t["runtime"]] << ratio
  puts format("%-14s %5d %10.0f %10.4f %12.4f %8.4f", t["runtime"], t["batch"], m["jobs_per_s"], m["drain_s"], m["redis_drain_s"], ratio)
end

puts "\nRecorder cost per job (middleware + one buffered journal line), in the target runtime"
runtimes.each do |label|
  launch = meta["runtimes"].find { |l, _| l == label || meta["runtimes"][l]["spec"] == label }&.last
  next unless launch && ratios.key?(label)
  _out, err, exit = Rubyrig::Processes::Child.capture([launch["interpreter"]["path"], *launch["ruby_flags"],
    File.expand_path("recorder_cost.rb", __dir__), dir, "100000"], env: launch["env"].merge("RUBYOPT" => nil))
  cost_s = exit.success? ? Float(err.lines.last) : nil
  rates = trials.select { |t| t["runtime"] == label && t["status"] == "ok" }.map { |t| t["metrics"]["jobs_per_s"] }
  median_ratio = Rubyrig::Stats.median(ratios[label])
  share = cost_s && cost_s * Rubyrig::Stats.median(rates)
  puts format("%-14s ratio median %.4f (min %.4f, max %.4f); recorder %.2f us/job = %.1f%% of the drain at %d jobs/s",
    label, median_ratio, ratios[label].min, ratios[label].max, (cost_s || Float::NAN) * 1e6, (share || Float::NAN) * 100, Rubyrig::Stats.median(rates))
end
puts "Results: #{results}"
