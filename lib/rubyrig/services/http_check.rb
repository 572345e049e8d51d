# Asks a server whether it is up, in Ruby and without a shell or curl: a TCP connect, then one GET
# whose status line is read.
require "socket"
require "io/wait"

module Rubyrig
  module Services
    module HttpCheck
      module_function

      # The status of GET path (with `headers`, {name => value}), or nil while the server refuses
      # connections or has not answered.
      def status(host, port, path, timeout_s: 1.0, headers: {})
        Socket.tcp(host, port, connect_timeout: timeout_s) do |socket|
          extra = headers.map { |name, value| "#{name}: #{value}\r\n" }.join
          socket.write("GET #{path} HTTP/1.1\r\nHost: #{host}:#{port}\r\n#{extra}Connection: close\r\n\r\n")
          next nil unless socket.wait_readable(timeout_s)
          socket.gets.to_s[%r{\AHTTP/1\.[01] (\d{3})}, 1]&.to_i
        end
      rescue SystemCallError, IOError # not listening yet, or the connection dropped while it boots
        nil
      end
    end
  end
end
