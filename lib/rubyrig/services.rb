# Processes a workload needs while it is measured, each started on 127.0.0.1 (or a private unix
# socket), checked for readiness in Ruby, and stopped by its owner. Measured ones (Puma, the Sidekiq
# workers) run through Drivers::ProcessRun, so the probe and the Monitor cover them; helpers (Redis,
# the stub endpoints) run under rubyrig's own control. Every service has the same lifecycle:
#   start  -> self once it is ready; raises its own Error subclass (with the log to read) otherwise
#   stop   -> ends it cleanly and returns how it ended (ProcessRun::Outcome for measured services,
#             Child::Exit for helpers)
#   abort  -> ends whatever still runs without collecting anything: for ensure blocks, safe to repeat
#             and after a start that failed half-way
module Rubyrig
  module Services
    HOST = "127.0.0.1"
  end
end
