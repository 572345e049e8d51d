# builtin:uptime-checks, loaded INSIDE the target runtime: each job runs one uptime check (the kinds in
# the `checks` parameter, in turn) against rubyrig's stub endpoints and writes the result row (kind,
# status, latency) to the database, like the updown.io daemon's benchmark. Old syntax.
require File.expand_path("checks", File.dirname(__FILE__))
require File.expand_path("check_store", File.dirname(__FILE__))

class UptimeCheckJob
  include Sidekiq::Job

  def perform(kind)
    status, latency_s = UptimeChecks.run(kind)
    CheckStore.insert(jid, kind, status, latency_s)
  end
end

kinds = RubyrigJobs.param("checks", "http,https,tcp").split(",").map(&:strip)
kinds.each { |kind| UptimeChecks.kind_method(kind) }

RubyrigJobs.define(UptimeCheckJob,
  args: lambda { |i| [kinds[i % kinds.size]] },
  setup: lambda { CheckStore.setup },
  report: lambda { CheckStore.report })
