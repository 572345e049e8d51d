# Tests the uptime-check stub endpoints: a fresh certificate that verifies for 127.0.0.1 (and only with
# its own CA file), HTTP and TCP answers, and nothing listening after stop.
require "test_helper"
require "net/http"
require "rubyrig/services/stub_endpoints"

class StubEndpointsTest < Minitest::Test
  include SlowTest

  def https(stubs, ca_file)
    http = Net::HTTP.new("127.0.0.1", stubs.ports["https"])
    http.use_ssl = true
    http.verify_mode = OpenSSL::SSL::VERIFY_PEER
    http.ca_file = ca_file
    http.start { |h| h.get("/") }
  end

  def test_serves_http_https_and_tcp_until_stopped
    stubs = Rubyrig::Services::StubEndpoints.new(dir: tmpdir).start
    begin
      assert_equal "OK", https(stubs, stubs.cert_path).body
      assert_equal "200", Net::HTTP.get_response(URI("http://127.0.0.1:#{stubs.ports["http"]}/")).code
      Socket.tcp("127.0.0.1", stubs.ports["tcp"], connect_timeout: 2).close
      assert_equal stubs.ports["https"].to_s, stubs.env["RUBYRIG_STUB_HTTPS_PORT"]
      other = Rubyrig::Services::StubEndpoints.new(dir: tmpdir).send(:write_certificate).first
      assert_raises(OpenSSL::SSL::SSLError) { https(stubs, other) }
      ports = stubs.ports.values
    ensure
      stubs.stop
    end
    refute stubs.alive?
    ports.each do |port|
      assert_raises(Errno::ECONNREFUSED) { Socket.tcp("127.0.0.1", port, connect_timeout: 2) }
    end
  end
end
