# The load generators rubyrig drives, one adapter per tool, and which connection modes each can do.
module Rubyrig
  module Load
    autoload :Result, "rubyrig/load/result"
    autoload :Wrk, "rubyrig/load/wrk"

    # name => adapter class name; the first is the default.
    ADAPTERS = {"wrk" => :Wrk}.freeze

    module_function

    def fetch(name) = const_get(ADAPTERS.fetch(name))

    # The installed adapters that can drive `mode` (keepalive, close, client-close).
    def supporting(mode) = ADAPTERS.keys.select { |name| fetch(name).supports?(mode) }
  end
end
