# The load generators rubyrig drives, one adapter per tool, and which connection modes each can do in a
# closed loop: wrk for keepalive and close, httperf for client-close. The open loop is httperf's alone
# (HttperfOpen, chosen by the load model, not by a connection mode).
module Rubyrig
  module Load
    # name => adapter class name, in order of preference.
    ADAPTERS = {"wrk" => :Wrk, "httperf" => :Httperf}.freeze

    module_function

    def fetch(name) = const_get(ADAPTERS.fetch(name))

    # The adapters that can drive `mode` (keepalive, close, client-close).
    def supporting(mode) = ADAPTERS.keys.select { |name| fetch(name).supports?(mode) }

    # The name of the adapter that measures `mode`: the first that can.
    def for_mode(mode) = supporting(mode).first || raise(ExperimentError, "no load generator can run connection mode '#{mode}'")

    # ": <the last line of a generator's log>" for a failure reason, or "" when the log says nothing.
    def said(log)
      tail = Processes::TextFile.tail(log, chars: 200).to_s
      tail.empty? ? "" : ": #{tail}"
    end
  end
end
