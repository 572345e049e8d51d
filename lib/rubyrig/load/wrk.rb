# Drives wrk: one run is one wrk process against a URL, pinned to the load CPUs, with a Lua done()
# that writes wrk's own summary as JSON, and wait4 for wrk's CPU use. wrk keeps connections alive;
# `close` sends "Connection: close" so that the server closes after each response. wrk cannot close a
# connection itself after a response, so it does not offer client-close.
require "json"
require "fileutils"

module Rubyrig
  module Load
    class Wrk
      SCRIPT = File.expand_path("wrk_report.lua", __dir__)
      MODES = %w[keepalive close].freeze
      INSTALL_HINT = "install it (Debian/Ubuntu: apt-get install wrk) or give its path with `wrk: /path/to/wrk`"
      # Beyond its duration and request timeout, how long wrk may take to start, join threads and exit.
      GRACE_S = 15

      # A run that produced no summary: wrk could not connect, crashed or hung.
      class RunFailed < Error; end

      def self.supports?(mode) = MODES.include?(mode)

      def name = "wrk"

      # The absolute path of the wrk binary, or ToolMissing naming the fix.
      def self.locate(binary, path: ENV.fetch("PATH", ""))
        Processes::Which.find(binary, path: path) || raise(ToolMissing, "#{binary} is not installed or not executable: #{INSTALL_HINT}")
      end

      # What wrk says it is, e.g. "wrk debian/4.1.0-3+b2 [epoll]", for the run's provenance.
      def self.version(path)
        out, err, = Processes::Child.capture([path, "-v"], timeout_s: 10)
        (out + err).lines.first.to_s.sub(/\s*Copyright.*/, "").strip
      end

      # wrk's JSON summary (microseconds) and its exit (rusage) as a Result in seconds.
      def self.parse(data, exit) = Result.from_summary(data, cpu_s: exit.cpu_user_s + exit.cpu_sys_s, wall_s: exit.wall_s)

      attr_reader :threads

      # script: the Lua script (rubyrig's report, or a traffic script that includes it); headers: sent
      # with every request ({name => value}).
      def initialize(binary:, threads:, connections:, timeout_s:, connection:, cpus: nil, script: nil, headers: {})
        unless self.class.supports?(connection)
          raise ExperimentError, "wrk cannot run connection mode '#{connection}'; it supports #{MODES.join(" and ")}"
        end
        @binary = binary
        @threads = threads
        @connections = connections
        @timeout_s = timeout_s
        @connection = connection
        @cpus = cpus
        @script = script || SCRIPT
        @headers = headers
      end

      def argv(url, duration_s)
        args = [@binary, "--threads", @threads, "--connections", @connections, "--duration", "#{duration_s}s",
          "--timeout", "#{@timeout_s}s", "--script", @script]
        args += @headers.flat_map { |name, value| ["--header", "#{name}: #{value}"] }
        args += ["--header", "Connection: close"] if @connection == "close"
        (args << url).map(&:to_s)
      end

      # Runs wrk for duration_s (whole seconds) against url; its output goes to dir/<label>.log and
      # <label>.json. Stops wrk in any case, so that Ctrl-C never leaves it running.
      def run(url, duration_s:, dir:, label:)
        json = File.join(dir, "#{label}.json")
        FileUtils.rm_f(json)
        log = File.join(dir, "#{label}.log")
        child = Processes::Child.spawn(argv(url, duration_s), env: Processes::InheritedEnv.withheld.merge("RUBYRIG_WRK_JSON" => json, "RUBYRIG_WRK_CONNECTIONS" => @connections.to_s), cpus: @cpus, out: log, err: [:child, :out])
        exit = child.wait(timeout_s: duration_s + @timeout_s + GRACE_S)
        raise RunFailed, "wrk did not finish within #{duration_s + @timeout_s + GRACE_S} s; see #{log}" unless exit
        unless exit.success? && File.exist?(json)
          raise RunFailed, "wrk #{exit.describe}#{Load.said(log)} (see #{log})"
        end
        self.class.parse(Processes::TextFile.json(json), exit)
      ensure
        child&.stop
      end
    end
  end
end
