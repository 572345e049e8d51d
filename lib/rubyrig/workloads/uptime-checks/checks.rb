# builtin:uptime-checks, INSIDE the target runtime: one uptime check against the stub endpoints rubyrig
# started (HTTP GET, HTTPS GET verifying the run's self-signed certificate, TCP connect), timed on the
# monotonic clock. A failed check is a result ("down: reason"), as for a real uptime checker.
# Old syntax, standard library only.
require "net/http"
require "openssl"
require "socket"

module UptimeChecks
  TIMEOUT_S = 5
  KINDS = %w[http https tcp].freeze
  # What a check that cannot reach its endpoint raises.
  DOWN = [SystemCallError, IOError, SocketError, Timeout::Error, OpenSSL::SSL::SSLError, Net::HTTPBadResponse].freeze

  module_function

  # Returns [status, latency_s].
  def run(kind)
    started_at = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    status = begin
      send(kind_method(kind))
    rescue *DOWN => e
      "down: " + e.class.name
    end
    [status, Process.clock_gettime(Process::CLOCK_MONOTONIC) - started_at]
  end

  def kind_method(kind)
    raise ArgumentError, "unknown check '#{kind}'; use #{KINDS.join(", ")}" unless KINDS.include?(kind)
    "check_" + kind
  end

  def check_http
    http_status(Net::HTTP.new("127.0.0.1", port("HTTP")))
  end

  def check_https
    http = Net::HTTP.new("127.0.0.1", port("HTTPS"))
    http.use_ssl = true
    http.verify_mode = OpenSSL::SSL::VERIFY_PEER
    http.ca_file = ENV.fetch("RUBYRIG_STUB_CA_FILE")
    http_status(http)
  end

  def check_tcp
    Socket.tcp("127.0.0.1", port("TCP"), connect_timeout: TIMEOUT_S) { |_socket| nil }
    "up"
  end

  def http_status(http)
    http.open_timeout = TIMEOUT_S
    http.read_timeout = TIMEOUT_S
    response = http.start { |h| h.get("/") }
    (response.code == "200") ? "up" : "down: HTTP " + response.code
  end

  def port(kind)
    Integer(ENV.fetch("RUBYRIG_STUB_" + kind + "_PORT"), 10)
  end
end
