# bench/jobs-overhead, loaded INSIDE the target runtime: a job that does nothing but let Redis time it.
# The first job each process runs stamps "bench:first" with Redis's own clock (SET NX, so the earliest
# stamp wins), and every job stamps "bench:last" and counts itself when it ends. Lua scripts run one at
# a time in Redis, so the last stamp is the latest. The report hook turns the stamps into an
# independent drain time: Redis's clock, Redis's counter, nothing from rubyrig's records.
class RedisTimedJob
  include Sidekiq::Job

  STAMP_FIRST = "local t = redis.call('TIME') " \
    "return redis.call('SET', KEYS[1], string.format('%s.%06d', t[1], tonumber(t[2])), 'NX')"
  STAMP_LAST = "local t = redis.call('TIME') " \
    "redis.call('SET', KEYS[1], string.format('%s.%06d', t[1], tonumber(t[2]))) " \
    "return redis.call('INCR', KEYS[2])"

  @started = false

  class << self
    attr_accessor :started
  end

  def perform
    first = !RedisTimedJob.started
    RedisTimedJob.started = true
    Sidekiq.redis { |conn| conn.call("EVAL", STAMP_FIRST, 1, "bench:first") } if first
    Sidekiq.redis { |conn| conn.call("EVAL", STAMP_LAST, 2, "bench:last", "bench:count") }
  end
end

report = lambda do
  first, last, count = Sidekiq.redis { |conn| conn.call("MGET", "bench:first", "bench:last", "bench:count") }
  expected = RubyrigJobs.job_count
  problems = (count.to_i == expected) ? [] : ["Redis counted #{count.to_i} jobs, #{expected} were enqueued"]
  {"metrics" => {"redis_drain_s" => Float(last) - Float(first), "redis_count" => count.to_i}, "problems" => problems}
end

RubyrigJobs.define(RedisTimedJob, report: report)
