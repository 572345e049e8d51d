# A private redis-server for one batch: Debian's redis-server on a unix socket in a 0700 directory, never
# on TCP (where any user of the machine could reach it), without persistence, checked with PING, and
# always stopped by its owner.
require "socket"
require "tmpdir"
require "fileutils"

module Rubyrig
  module Services
    class RedisServer
      EXECUTABLE = "redis-server"
      INSTALL_HINT = "install it with `apt-get install redis-server` (or put redis-server on PATH)"

      # Raised when redis-server cannot be found, started or reached.
      class Failure < Error; end

      attr_reader :socket_path, :log_path

      # log_path: where its output goes; pid_path: where its pid is written for whoever needs to find it.
      def initialize(log_path:, pid_path: nil, executable: EXECUTABLE, ready_timeout_s: 10)
        @log_path = log_path
        @pid_path = pid_path
        @executable = executable
        @ready_timeout_s = ready_timeout_s
      end

      # The version of the installed redis-server, e.g. "7.0.15".
      def version
        @version ||= begin
          out, _err, exit = Processes::Child.capture([@executable, "--version"], timeout_s: 10)
          raise Failure, "#{@executable} --version failed (#{exit.describe}); #{INSTALL_HINT}" unless exit.success?
          out[/\bv=(\S+)/, 1] || raise(Failure, "cannot read the version of #{@executable} from #{out.strip.inspect}")
        end
      rescue ToolMissing
        raise Failure, "redis-server is not installed; #{INSTALL_HINT}"
      end

      # Starts it and waits until it answers PING.
      def start
        version
        @dir = Dir.mktmpdir("rubyrig-redis-")
        spawn
        return self if ready?
        stop_child
        raise Failure, "redis-server did not start: #{log_tail}"
      end

      def url = "unix://#{@socket_path}"

      def pid = @child&.pid

      def alive? = !!@child&.alive?

      # How the server ended, for a failure reason ("killed by SIGKILL").
      def exit_description = @child&.wait(timeout_s: 0)&.describe || "still running"

      # Sends one command and returns the reply (String, Integer, Array, nil or an error String).
      def call(*args)
        with_connection do |io|
          io.write("*#{args.size}\r\n" + args.map { |a| "$#{a.to_s.bytesize}\r\n#{a}\r\n" }.join)
          read_reply(io)
        end
      end

      # Stops the server and removes its directory (the pid file stays, as a record); returns how it
      # ended (Child::Exit), or nil when it never started.
      def stop
        stop_child
        FileUtils.rm_rf(@dir) if @dir
        @dir = nil
        @child&.wait
      end

      # The same as stop, for ensure blocks: safe to call twice, and when start failed half-way.
      def abort = stop

      private

      # Port 0 turns TCP off; the socket's directory (Dir.mktmpdir) and the socket itself are the user's only.
      def spawn
        @socket_path = File.join(@dir, "redis.sock")
        argv = [@executable, "--save", "", "--appendonly", "no", "--dir", @dir, "--daemonize", "no",
          "--logfile", "", "--databases", "1", "--port", "0", "--unixsocket", @socket_path, "--unixsocketperm", "700",
          *keep_environment]
        @child = Processes::Child.spawn(argv, env: Processes::InheritedEnv.withheld, out: @log_path, err: [:child, :out])
        File.write(@pid_path, @child.pid.to_s) if @pid_path
      end

      # redis-server writes its title over the memory /proc/PID/environ shows, so that the containment
      # marker vanishes (measured with 7.0.15); `set-proc-title no` (6.2 and later) keeps it. An older
      # one refuses the option, and the watchdog finds it by its process group alone.
      def keep_environment
        (Gem::Version.new(version) >= Gem::Version.new("6.2")) ? ["--set-proc-title", "no"] : []
      end

      def ready?
        deadline = now + @ready_timeout_s
        while now < deadline
          return false unless @child.alive?
          begin
            return true if call("PING") == "PONG"
          rescue SystemCallError, IOError # not listening yet
            nil
          end
          sleep 0.01
        end
        false
      end

      def with_connection
        io = UNIXSocket.new(@socket_path)
        yield io
      ensure
        io&.close
      end

      def read_reply(io)
        line = io.gets("\r\n") or raise IOError, "redis-server closed the connection"
        body = line.chomp("\r\n")[1..]
        case line[0]
        when "+", "-" then body
        when ":" then Integer(body)
        when "$" then (body == "-1") ? nil : io.read(Integer(body) + 2).chomp("\r\n")
        when "*" then (body == "-1") ? nil : Array.new(Integer(body)) { read_reply(io) }
        else raise IOError, "unexpected reply from redis-server: #{line.inspect}"
        end
      end

      def stop_child
        @child&.stop(grace_s: 5.0)
      end

      def log_tail
        Processes::TextFile.tail(@log_path, lines: 2) || "no output"
      end

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
