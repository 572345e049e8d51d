# Built-in workload: each iteration is one HTTP request (keep-alive) from the main thread to a small
# server in a separate process. mode=thread adds a CPU-bound thread to the process, mode=ractor a
# CPU-bound Ractor; both want CPU while the request thread waits for I/O and then for the GVL.
require "socket"
require "net/http"

mode = Rubyrig.param("mode", "alone")
unless %w[alone thread ractor].include?(mode)
  abort "gvl-noisy-neighbor: mode must be alone, thread or ractor, got #{mode}"
end

listener = TCPServer.new("127.0.0.1", 0)
port = listener.addr[1]
server = fork do
  body = "ok\n"
  loop do
    client = listener.accept
    Thread.new(client) do |socket|
      while (line = socket.gets)
        next unless line.start_with?("GET ")
        nil until socket.gets.to_s.strip.empty?
        socket.write("HTTP/1.1 200 OK\r\nContent-Length: #{body.bytesize}\r\nContent-Type: text/plain\r\n\r\n#{body}")
      end
      socket.close
    end
  end
end
listener.close

def spin
  x = 0
  loop { x += 1 }
end

neighbor = case mode
when "thread" then Thread.new { spin }
when "ractor"
  Warning[:experimental] = false
  Ractor.new do
    x = 0
    loop { x += 1 }
  end
end

begin
  Net::HTTP.start("127.0.0.1", port) do |http|
    Rubyrig.bench { http.get("/").body }
  end
ensure
  neighbor.kill if neighbor.is_a?(Thread)
  Process.kill("KILL", server)
  Process.wait(server)
end
