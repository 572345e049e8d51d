# bench/jobs-overhead, loaded by a bare `sidekiq -r` (no rubyrig anywhere): the job of jobs.rb without
# rubyrig's recorder or definition, stamping Redis's clock at the first job's start and every job's end.
class BareTimedJob
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
    first = !BareTimedJob.started
    BareTimedJob.started = true
    Sidekiq.redis { |conn| conn.call("EVAL", STAMP_FIRST, 1, "bench:first") } if first
    Sidekiq.redis { |conn| conn.call("EVAL", STAMP_LAST, 2, "bench:last", "bench:count") }
  end
end

Sidekiq.configure_server { |config| config.logger.level = Logger::WARN }
