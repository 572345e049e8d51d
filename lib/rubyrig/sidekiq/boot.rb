# The file rubyrig gives to `sidekiq -r` INSIDE the target runtime: loads the workload's jobs file and
# configures the server with rubyrig's recorder (first in the middleware chain), the start gate and
# the log level. Redis comes from REDIS_URL. Old syntax and Sidekiq only, like support.rb.
require File.expand_path("support", File.dirname(__FILE__))

RubyrigJobs.load_definition

Sidekiq.configure_server do |config|
  config.logger.level = RubyrigJobs.log_level
  config.server_middleware { |chain| chain.prepend(RubyrigJobs::Recorder) }
  config.on(:startup) { RubyrigJobs.wait_at_gate }
end
