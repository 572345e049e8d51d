# Servers a workload needs while it is measured (the app server first), each started on 127.0.0.1,
# checked for readiness in Ruby, and stopped by its owner in an ensure.
module Rubyrig
  module Services
    autoload :HttpCheck, "rubyrig/services/http_check"
    autoload :Ports, "rubyrig/services/ports"
    autoload :Puma, "rubyrig/services/puma"

    HOST = "127.0.0.1"
  end
end
