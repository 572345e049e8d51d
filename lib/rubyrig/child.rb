# Owns one spawned process and its process group: starts it from an argv, waits with a deadline, and
# stops the whole group (TERM, a grace period, then KILL) so that nothing outlives rubyrig.
require_relative "reaper"
require_relative "which"

module Rubyrig
  class Child
    # How a child ended, from outside: exit status or signal, wall time and resource usage.
    Exit = Struct.new(:status, :signal, :wall_s, :cpu_user_s, :cpu_sys_s, :max_rss_bytes,
      :voluntary_ctx_switches, :involuntary_ctx_switches, keyword_init: true) do
      def success? = status&.zero?

      def describe = signal ? "killed by SIG#{signal}" : "exited with status #{status}"
    end

    SETPRIV = "/usr/bin/setpriv"
    TASKSET = "/usr/bin/taskset"

    attr_reader :pid, :argv, :started_at

    # Spawns argv in a new process group. With cpus: "1" or "0-1" it is pinned through taskset.
    # Unless disabled, setpriv makes the kernel KILL the child if rubyrig itself dies (kill -9).
    def self.spawn(argv, env: {}, chdir: nil, out: File::NULL, err: File::NULL, cpus: nil, death_signal: true)
      child = new(argv, env: env, chdir: chdir, out: out, err: err, cpus: cpus, death_signal: death_signal)
      child.start
      child
    end

    # Runs argv to completion and returns [stdout, stderr, Exit]; kills it after timeout_s.
    def self.capture(argv, env: {}, chdir: nil, timeout_s: 60)
      require "tempfile"
      Tempfile.create("rubyrig-out") do |out|
        Tempfile.create("rubyrig-err") do |err|
          child = spawn(argv, env: env, chdir: chdir, out: out.path, err: err.path)
          begin
            exit = child.wait(timeout_s: timeout_s)
            raise Timeout, "#{argv.first} did not finish within #{timeout_s} s" unless exit
            return [File.read(out.path), File.read(err.path), exit]
          ensure
            child.stop
          end
        end
      end
    end

    # Raised by capture when the command runs past its deadline.
    class Timeout < Error; end

    def initialize(argv, env:, chdir:, out:, err:, cpus:, death_signal:)
      @argv = argv.map(&:to_s)
      @env = env.transform_keys(&:to_s).transform_values { |v| v&.to_s }
      @chdir = chdir
      @out = out
      @err = err
      @cpus = cpus
      @death_signal = death_signal
      @exit = nil
    end

    def start
      path = @env.fetch("PATH") { ENV.fetch("PATH", "") }
      unless Which.find(@argv.first, path: path.to_s)
        raise ToolMissing, "cannot run #{@argv.first}: no such executable; check the path or install it"
      end
      @started_at = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      options = {pgroup: true, in: File::NULL, out: @out, err: @err, close_others: true}
      options[:chdir] = @chdir if @chdir
      @pid = Process.spawn(@env, *wrapped_argv, **options)
      @waiter = Thread.new { reap }
      self
    end

    # The process group id equals the pid because the child leads its own group.
    def pgid = @pid

    # Waits up to timeout_s (forever when nil); returns the Exit, or nil if still running.
    def wait(timeout_s: nil)
      return @exit if @exit
      @waiter.join(timeout_s)
      @exit
    end

    def exited? = !@exit.nil?

    def alive? = !exited?

    # Stops the whole group: TERM, up to grace_s for the leader to exit, then KILL. Safe to call twice,
    # and after a normal exit it still sweeps up anything the child left in its group.
    def stop(grace_s: 2.0)
      return unless @pid
      unless exited?
        signal_group("TERM")
        wait(timeout_s: grace_s)
      end
      signal_group("KILL")
      wait(timeout_s: 5)
    end

    def signal_group(signal)
      Process.kill(signal, -pgid)
      true
    rescue Errno::ESRCH # the group is already empty
      false
    rescue Errno::EPERM # the pid was reused by a process we do not own; leave it alone
      false
    end

    private

    def wrapped_argv
      prefix = []
      prefix += [TASKSET, "-c", @cpus.to_s] if @cpus
      prefix += [SETPRIV, "--pdeathsig", "KILL", "--"] if @death_signal && File.executable?(SETPRIV)
      prefix + @argv
    end

    def reap
      usage = Reaper.wait(@pid)
      finished = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      @exit = Exit.new(wall_s: finished - @started_at, **usage.to_h).freeze
    end
  end
end
