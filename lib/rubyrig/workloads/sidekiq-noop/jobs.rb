# builtin:sidekiq-noop, loaded INSIDE the target runtime: a Sidekiq job that does nothing, so the drain
# measures fetching, decoding, dispatching and acknowledging jobs. Old syntax, Sidekiq only.
class NoopJob
  include Sidekiq::Job

  def perform
  end
end

RubyrigJobs.define(NoopJob)
