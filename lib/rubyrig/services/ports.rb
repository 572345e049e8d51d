# Picks a free TCP port on 127.0.0.1, or checks that a chosen one is free, so that a server rubyrig
# starts never shares its port with a program that would answer in its place.
require "socket"

module Rubyrig
  module Services
    module Ports
      # The port a server was told to use is taken, or cannot be bound.
      class Unavailable < Error; end

      module_function

      # A port the kernel just handed out as free; the server binds it a moment later.
      def free
        server = TCPServer.new(HOST, 0)
        server.addr[1]
      ensure
        server&.close
      end

      def check_free!(port)
        TCPServer.new(HOST, port).close
        port
      rescue Errno::EADDRINUSE
        raise Unavailable, "port #{port} on #{HOST} is already in use by another program: stop it, or drop `port:` so that rubyrig picks a free port"
      rescue Errno::EACCES
        raise Unavailable, "port #{port} on #{HOST} needs privileges to bind: choose a port above 1023, or drop `port:`"
      end
    end
  end
end
