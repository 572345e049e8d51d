# The Puma app server as a measured service. It writes Puma's config for the batch (127.0.0.1, a free
# port, processes and threads, production), starts Puma with the target runtime from that runtime's
# gem set through Processes::MeasuredRun (so that the probe, the Monitor and the variant checks cover the master
# and every worker), waits until a GET is answered, and stops it with TERM, a deadline, then KILL of
# its process group.
module Rubyrig
  module Services
    class Puma
      # Puma exited or stayed silent while booting; the message names the log kept in the artifacts.
      class BootFailed < Error; end

      # Puma exited on its own while it was being loaded, so the load measured a dead server.
      class Exited < Error; end

      LAUNCH = 'load Gem.bin_path("puma", "puma")'
      LOG_PREFIX = "server-"
      CONFIG_FILE = "puma.rb"
      POLL_S = 0.01
      # Puma's request log (one line per request, in server-stdout.log), its time to the microsecond:
      # Puma's own format rounds it to 0.1 ms, and is widened only where it is the one known here.
      REQUEST_LOG = [
        "log_requests",
        'require "puma/commonlogger"',
        "if Puma::CommonLogger::FORMAT.end_with?(\"%0.4f\\n\")",
        '  Puma::CommonLogger.const_set(:FORMAT, Puma::CommonLogger.send(:remove_const, :FORMAT).sub("%0.4f", "%0.6f"))',
        "end"
      ].freeze

      attr_reader :port, :boot_s

      # context: the batch's context with cpus set to the server's CPUs; process_run: the class that runs
      # a measured process tree for a context (Processes::MeasuredRun), so that services name no kind.
      # log_requests: Puma's request log on (one line per request in server-stdout.log, for traffic);
      # headers: what the readiness GET sends, as the load will.
      def initialize(context:, process_run:, rackup:, processes:, threads:, port:, boot_timeout_s:, path: "/", env: {}, log_requests: false, headers: {})
        @context = context
        @process_run = process_run
        @rackup = rackup
        @processes = processes
        @threads = threads
        @port = port
        @boot_timeout_s = boot_timeout_s
        @path = path
        @env = env
        @log_requests = log_requests
        @headers = headers
      end

      def url = "http://#{HOST}:#{@port}#{@path}"

      def log_path(stream = "stderr") = File.join(@context.artifacts_dir, "#{LOG_PREFIX}#{stream}.log")

      # Starts Puma and returns once it answers; sets boot_s (spawn to first good response).
      def start
        File.write(config_path, config_text)
        argv = @context.ruby_argv("-e", LAUNCH, "--", "-C", config_path)
        @process = @process_run.new(@context, ruby_root: true, early_facts: true)
        @process.start(argv, env: @process.env.merge(@env), chdir: File.dirname(@rackup), log_prefix: LOG_PREFIX)
        @boot_s = wait_until_ready
        self
      end

      # Raises Exited when Puma's master has exited before rubyrig stopped it; phase says when it was
      # found, e.g. "during the measured load".
      def check_running!(phase)
        reason = exit_reason(phase)
        raise Exited, reason if reason
      end

      # Why Puma is gone, when its master has exited before rubyrig stopped it; else nil.
      def exit_reason(phase)
        return nil unless @process&.child&.exited?
        "Puma exited #{phase} (#{@process.exit_text(@process.child.wait)}): #{log_reason}; its log is kept in #{log_path}"
      end

      # A reading of the whole server tree now (from /proc): its CPU seconds so far and the time.
      def sample = @process.monitor.sample

      # Records end memory, then stops the tree and returns the MeasuredRun::Outcome.
      def stop(grace_s: 10.0)
        @process.snapshot
        @process.finish(stopped: true, grace_s: grace_s)
      end

      # Stops whatever still runs without collecting anything; for ensure blocks.
      def abort = @process&.abort

      def config_text
        lines = [
          "# Written by rubyrig for one batch.",
          "bind #{"tcp://#{HOST}:#{@port}".dump}",
          "threads #{@threads}, #{@threads}",
          "workers #{(@processes > 1) ? @processes : 0}",
          "environment \"production\"",
          "rackup #{@rackup.dump}",
          "directory #{File.dirname(@rackup).dump}"
        ]
        lines << "preload_app!" if @processes > 1
        lines += REQUEST_LOG if @log_requests
        lines.join("\n") + "\n"
      end

      private

      def config_path = File.join(@context.artifacts_dir, CONFIG_FILE)

      def wait_until_ready
        child = @process.child
        deadline = now + @boot_timeout_s
        loop do
          raise BootFailed, "Puma exited while booting (#{child.wait.describe}): #{log_reason}; its log is kept in #{log_path}" if child.exited?
          status = HttpCheck.status(HOST, @port, @path, timeout_s: [deadline - now, 1.0].min.clamp(0.05, 1.0), headers: @headers)
          if status
            return now - child.started_at if status.between?(200, 299)
            raise BootFailed, "the app answered GET #{@path} with status #{status}#{status_hint(status)}; see #{log_path("stdout")}"
          end
          if now > deadline
            raise BootFailed, "Puma did not answer GET #{@path} on port #{@port} within #{@boot_timeout_s} s (raise boot_timeout_s?): #{log_reason}; its log is kept in #{log_path}"
          end
          sleep POLL_S
        end
      end

      def status_hint(status)
        if status.between?(300, 399)
          ", a redirect that wrk would measure instead of the app: give a path that answers 2xx with `path:` (or turn off config.force_ssl, or send headers: {X-Forwarded-Proto: https})"
        else
          ": give a route that answers 2xx with `path:`"
        end
      end

      # The cause of a failed boot, from Puma's logs (BootLog).
      def log_reason = BootLog.cause(read(log_path("stdout")), read(log_path("stderr")))

      def read(path) = File.exist?(path) ? Processes::TextFile.read(path) : ""

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
