# The stub endpoints of an uptime-check workload, run by rubyrig's own Ruby as a separate process (so
# that they cost the same whichever runtime is measured): an HTTP server, an HTTPS server with the
# certificate it is given, and a TCP port that accepts and closes, all on 127.0.0.1 at ports the
# kernel picks. Each connection gets its own thread. The ports are written as JSON to a file.
#   ruby stub_server.rb CERT_PEM KEY_PEM PORTS_FILE
require "socket"
require "openssl"
require "json"

module Rubyrig
  module Services
    class StubServer
      RESPONSE = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nOK"
      # What a client that goes away mid-request raises; the connection is simply dropped.
      DROPPED = [IOError, SystemCallError, OpenSSL::SSL::SSLError].freeze

      def initialize(cert_path, key_path)
        @tls = OpenSSL::SSL::SSLContext.new
        @tls.cert = OpenSSL::X509::Certificate.new(File.read(cert_path))
        @tls.key = OpenSSL::PKey.read(File.read(key_path))
        @servers = {"http" => listen, "https" => listen, "tcp" => listen}
      end

      def ports = @servers.transform_values { |s| s.addr[1] }

      def serve
        threads = @servers.map { |kind, server| Thread.new { accept_loop(kind, server) } }
        threads.each(&:join)
      end

      private

      def listen = TCPServer.new("127.0.0.1", 0)

      def accept_loop(kind, server)
        loop do
          socket = server.accept
          Thread.new { handle(kind, socket) }
        end
      end

      def handle(kind, socket)
        case kind
        when "http" then respond(socket)
        when "https"
          tls = OpenSSL::SSL::SSLSocket.new(socket, @tls)
          tls.sync_close = true
          tls.accept
          respond(tls)
          socket = tls
        end
      rescue *DROPPED
        nil
      ensure
        socket.close
      end

      def respond(io)
        while (line = io.gets)
          break if line == "\r\n" || line == "\n"
        end
        io.write(RESPONSE)
      end
    end
  end
end

if $PROGRAM_NAME == __FILE__
  cert_path, key_path, ports_path = ARGV
  server = Rubyrig::Services::StubServer.new(cert_path, key_path)
  File.write("#{ports_path}.tmp", JSON.generate(server.ports))
  File.rename("#{ports_path}.tmp", ports_path)
  Signal.trap("TERM") { exit }
  server.serve
end
