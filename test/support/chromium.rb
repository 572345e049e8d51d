# Headless Chromium driven over the DevTools protocol with a small websocket client of our own (standard
# library only, nothing downloaded): open a page at a given width, collect its console errors and
# exceptions, run JavaScript in it, and take screenshots. Used by the HTML report tests and by
# bin/report-screenshots. One browser per instance, in its own process group and profile directory.
require "base64"
require "digest/sha1"
require "fileutils"
require "json"
require "net/http"
require "securerandom"
require "io/wait"
require "socket"
require "tmpdir"

class Chromium
  FLAGS = %w[--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
    --disable-sync --no-first-run --hide-scrollbars --remote-debugging-port=0].freeze
  WIDTH = 1280
  TIMEOUT_S = 60

  # Raised when the browser does not start, answer or load in time.
  class Failure < StandardError; end

  def self.binary = ENV.fetch("RUBYRIG_CHROMIUM") { ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find { |p| File.executable?(p) } }

  attr_reader :events

  def initialize
    binary = self.class.binary or raise Failure, "no chromium; install it (bin/setup does: apt-get install chromium)"
    @profile = Dir.mktmpdir("rubyrig-chromium")
    @log = File.join(@profile, "chromium.log")
    @pid = Process.spawn(binary, *FLAGS, "--user-data-dir=#{@profile}", "about:blank", out: @log, err: @log, pgroup: true)
    @events = []
    @next_id = 0
    connect(page_socket_url(devtools_port))
  rescue
    close
    raise
  end

  # Loads url at WIDTH px and waits for its load event; the console is watched from the start.
  def open(url, height: 900)
    call("Page.enable")
    call("Runtime.enable")
    call("Log.enable")
    call("Emulation.setDeviceMetricsOverride", width: WIDTH, height: height, deviceScaleFactor: 1, mobile: false)
    @events.clear
    call("Page.navigate", url: url)
    wait_for_event("Page.loadEventFired")
    self
  end

  # Console errors, uncaught exceptions and error log entries (bad SVG attributes among them).
  def errors
    @events.filter_map do |e|
      params = e["params"]
      case e["method"]
      when "Runtime.exceptionThrown" then params.dig("exceptionDetails", "text")
      when "Runtime.consoleAPICalled" then params["args"].map { |a| a["value"] || a["description"] }.join(" ") if %w[error assert].include?(params["type"])
      when "Log.entryAdded" then params.dig("entry", "text") if params.dig("entry", "level") == "error"
      end
    end
  end

  # The value of a JavaScript expression (JSON-serialisable).
  def evaluate(expression)
    result = call("Runtime.evaluate", expression: expression, returnByValue: true, awaitPromise: true)
    raise Failure, "JavaScript failed: #{result.dig("exceptionDetails", "exception", "description")}" if result["exceptionDetails"]
    result.dig("result", "value")
  end

  # A PNG of the page region (CSS pixels of the whole page) at WIDTH px wide.
  def screenshot(path, y:, height:)
    data = call("Page.captureScreenshot", format: "png", captureBeyondViewport: true,
      clip: {x: 0, y: y, width: WIDTH, height: height, scale: 1})["data"]
    File.binwrite(path, Base64.decode64(data))
    path
  end

  def close
    @socket&.close
    if @pid
      begin
        Process.kill("TERM", -@pid)
        deadline = monotonic + 5
        sleep 0.05 while Process.waitpid(@pid, Process::WNOHANG).nil? && monotonic < deadline
        Process.kill("KILL", -@pid)
        Process.waitpid(@pid)
      rescue Errno::ESRCH, Errno::ECHILD # already gone and reaped
        nil
      end
    end
    FileUtils.rm_rf(@profile) if @profile
  end

  private

  def monotonic = Process.clock_gettime(Process::CLOCK_MONOTONIC)

  def devtools_port
    file = File.join(@profile, "DevToolsActivePort")
    deadline = monotonic + TIMEOUT_S
    until File.exist?(file) && Rubyrig::Processes::TextFile.read(file).lines.size >= 2
      raise Failure, "chromium did not start: #{Rubyrig::Processes::TextFile.read(@log).lines.last(5).join}" if monotonic > deadline || Process.waitpid(@pid, Process::WNOHANG)
      sleep 0.05
    end
    Integer(Rubyrig::Processes::TextFile.read(file).lines.first)
  end

  def page_socket_url(port)
    deadline = monotonic + TIMEOUT_S
    loop do
      page = JSON.parse(Net::HTTP.get(URI("http://127.0.0.1:#{port}/json/list"))).find { |t| t["type"] == "page" }
      return page["webSocketDebuggerUrl"] if page
      raise Failure, "chromium has no page to drive" if monotonic > deadline
      sleep 0.05
    end
  end

  def connect(url)
    uri = URI(url)
    @socket = TCPSocket.new(uri.host, uri.port)
    key = Base64.strict_encode64(SecureRandom.random_bytes(16))
    @socket.write("GET #{uri.path} HTTP/1.1\r\nHost: #{uri.host}:#{uri.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" \
      "Sec-WebSocket-Key: #{key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
    head = +""
    head << @socket.readpartial(1) until head.end_with?("\r\n\r\n")
    accept = Base64.strict_encode64(Digest::SHA1.digest(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
    raise Failure, "websocket handshake refused: #{head.lines.first}" unless head.start_with?("HTTP/1.1 101") && head.include?(accept)
  end

  def call(method, **params)
    id = (@next_id += 1)
    send_frame(JSON.generate(id: id, method: method, params: params))
    loop do
      message = JSON.parse(read_message)
      if message["id"] == id
        raise Failure, "#{method}: #{message["error"]["message"]}" if message["error"]
        return message["result"]
      end
      @events << message if message["method"]
    end
  end

  def wait_for_event(name)
    deadline = monotonic + TIMEOUT_S
    until @events.any? { |e| e["method"] == name }
      raise Failure, "no #{name} within #{TIMEOUT_S} s" if monotonic > deadline
      message = JSON.parse(read_message)
      @events << message if message["method"]
    end
  end

  # A client frame: final, text, masked as the protocol requires.
  def send_frame(text)
    payload = text.b
    header = [0x81].pack("C")
    size = payload.bytesize
    header << if size < 126 then [0x80 | size].pack("C")
    elsif size < 65_536 then [0x80 | 126, size].pack("Cn")
    else [0x80 | 127, size].pack("CQ>")
    end
    mask = SecureRandom.random_bytes(4)
    masked = payload.bytes.each_with_index.map { |b, i| b ^ mask.getbyte(i % 4) }.pack("C*")
    @socket.write(header + mask + masked)
  end

  # The next whole text message; pings are answered, fragments joined.
  def read_message
    message = +""
    loop do
      first, second = read_bytes(2).unpack("CC")
      opcode = first & 0x0f
      size = second & 0x7f
      size = read_bytes(2).unpack1("n") if size == 126
      size = read_bytes(8).unpack1("Q>") if size == 127
      mask = (second & 0x80).zero? ? nil : read_bytes(4)
      data = read_bytes(size)
      data = data.bytes.each_with_index.map { |b, i| b ^ mask.getbyte(i % 4) }.pack("C*") if mask
      case opcode
      when 0x8 then raise Failure, "chromium closed the connection"
      when 0x9 then next send_pong(data)
      when 0xA then next
      end
      message << data
      return message.force_encoding("UTF-8") if (first & 0x80) != 0
    end
  end

  def send_pong(data)
    mask = SecureRandom.random_bytes(4)
    @socket.write([0x8A, 0x80 | data.bytesize].pack("CC") + mask + data.bytes.each_with_index.map { |b, i| b ^ mask.getbyte(i % 4) }.pack("C*"))
  end

  def read_bytes(count)
    buffer = +"".b
    while buffer.bytesize < count
      raise Failure, "chromium did not answer within #{TIMEOUT_S} s" unless @socket.wait_readable(TIMEOUT_S)
      buffer << @socket.readpartial(count - buffer.bytesize)
    end
    buffer
  end
end
