# bench/jobs-overhead, run INSIDE a target runtime: what rubyrig's recorder middleware adds to one job,
# timed over many calls around an empty block, with the journal writing to a scratch directory.
#   ruby recorder_cost.rb DIR CALLS  -> prints seconds per call
require File.expand_path("../../lib/rubyrig/sidekiq/support", File.dirname(__FILE__))

dir, calls = ARGV[0], Integer(ARGV[1] || "100000")
Dir.mkdir(File.join(dir, "records")) unless File.directory?(File.join(dir, "records"))
ENV["RUBYRIG_JOBS_DIR"] = dir
recorder = RubyrigJobs::Recorder.new
job = {"jid" => "0123456789abcdef01234567", "rubyrig_enqueued_ns" => RubyrigJobs.monotonic_ns}
calls.times { recorder.call(nil, job, "default") {} }
empty_started = RubyrigJobs.monotonic
calls.times { |_i| nil }
empty_s = RubyrigJobs.monotonic - empty_started
started = RubyrigJobs.monotonic
calls.times { recorder.call(nil, job, "default") {} }
warn((RubyrigJobs.monotonic - started - empty_s) / calls)
