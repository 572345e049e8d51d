# Tests the readiness check and the port helpers against real sockets on 127.0.0.1 (no server gems).
require "test_helper"
require "socket"

class HttpCheckTest < Minitest::Test
  def serve_once(response)
    server = TCPServer.new("127.0.0.1", 0)
    thread = Thread.new do
      client = server.accept
      client.readpartial(1024)
      client.write(response)
      client.close
    end
    [server, thread]
  end

  def test_reads_the_status_of_a_get
    server, thread = serve_once("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
    assert_equal 200, Rubyrig::Services::HttpCheck.status("127.0.0.1", server.addr[1], "/")
  ensure
    thread&.join
    server&.close
  end

  def test_reports_error_statuses_as_they_are
    server, thread = serve_once("HTTP/1.0 404 Not Found\r\n\r\n")
    assert_equal 404, Rubyrig::Services::HttpCheck.status("127.0.0.1", server.addr[1], "/missing")
  ensure
    thread&.join
    server&.close
  end

  def test_nil_while_nothing_listens
    port = Rubyrig::Services::Ports.free
    assert_nil Rubyrig::Services::HttpCheck.status("127.0.0.1", port, "/", timeout_s: 0.2)
  end

  def test_nil_when_the_server_accepts_but_does_not_answer_in_time
    server = TCPServer.new("127.0.0.1", 0)
    assert_nil Rubyrig::Services::HttpCheck.status("127.0.0.1", server.addr[1], "/", timeout_s: 0.1)
  ensure
    server&.close
  end

  def test_a_port_in_use_is_refused_with_the_fix
    server = TCPServer.new("127.0.0.1", 0)
    error = assert_raises(Rubyrig::Services::Ports::Unavailable) { Rubyrig::Services::Ports.check_free!(server.addr[1]) }
    assert_match(/port #{server.addr[1]} on 127.0.0.1 is already in use.*drop `port:`/, error.message)
    refute_includes error.message, "\n"
  ensure
    server&.close
  end

  def test_a_free_port_passes
    port = Rubyrig::Services::Ports.free
    assert_equal port, Rubyrig::Services::Ports.check_free!(port)
  end
end
