# Real httperf, run three times back to back as a warmup and a measured run are: the first run leaves
# thousands of the client's ports in TIME_WAIT (the client closes each connection), and the next
# must still start, measure and stop on SIGINT. With httperf's --hog it picked those ports itself and
# could spin on them without ever reading SIGINT; the kernel's own choice of port reuses them safely.
require "test_helper"
require "socket"

class HttperfPortsTest < Minitest::Test
  include SlowTest

  # A tiny HTTP/1.1 server in its own process: one fixed response per connection.
  SERVER = <<~RUBY
    require "socket"
    server = TCPServer.new("127.0.0.1", 0)
    $stdout.puts server.addr[1]
    $stdout.flush
    loop do
      client = server.accept
      client.readpartial(4096)
      client.write("HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\nContent-Type: text/plain\\r\\n\\r\\nok")
      client.read # until httperf closes its end
      client.close
    rescue IOError, SystemCallError # the client went away first
      client&.close
    end
  RUBY

  def test_a_second_run_right_after_the_first_measures_and_stops
    binary = Rubyrig::Load::Httperf.locate("httperf")
    dir = tmpdir
    reader, writer = IO.pipe
    server = Rubyrig::Processes::Child.spawn([RbConfig.ruby, "-e", SERVER], out: writer)
    writer.close
    port = reader.gets.to_i
    httperf = Rubyrig::Load::Httperf.new(binary: binary, connections: 2, timeout_s: 2)
    first, *later = %w[first second third].map do |label|
      httperf.run("http://127.0.0.1:#{port}/", duration_s: 1.5, dir: dir, label: label)
    end
    assert_operator first.requests, :>, 500, "the first run left that many client ports in TIME_WAIT"
    later.each do |result|
      assert_operator result.requests, :>, 0
      assert_equal 0, result.error_count, result.errors.inspect
    end
  ensure
    server&.stop
    reader&.close
  end
end
