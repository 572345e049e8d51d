# Owns one spawned process and everything it starts: spawns it from an argv in its own process group
# and its own place in the Containment, waits with a deadline, and stops the whole group (TERM, a grace
# period, then KILL), then kills whatever of its descendants left the group, so that nothing outlives it.
module Rubyrig
  module Processes
    class Child
      # How a child ended, from outside: exit status or signal, wall time and resource usage.
      Exit = Struct.new(:status, :signal, :wall_s, :cpu_user_s, :cpu_sys_s, :max_rss_bytes,
        :voluntary_ctx_switches, :involuntary_ctx_switches, keyword_init: true) do
        def success? = status&.zero?

        def describe = signal ? "killed by SIG#{signal}" : "exited with status #{status}"
      end

      EXEC_FAILED = 127
      # What the forked child reports just before exec: the monotonic clock, whether it joined its
      # cgroup, and its struct rusage so far.
      REPORT_FORMAT = "ECq18"
      REPORT_BYTES = 8 + 1 + Reaper::RUSAGE_BYTES

      attr_reader :pid, :argv, :started_at

      # Spawns argv in a new process group. With cpus: "1" or "0-1" it is pinned to those CPUs. Unless
      # disabled, the kernel KILLs the child if rubyrig itself dies (kill -9): the death signal is set
      # between fork and exec, and a child whose parent is already gone exits at once, so no window is left.
      # Its descendants, which the death signal does not reach, die by the containment's watchdog.
      def self.spawn(argv, env: {}, chdir: nil, out: File::NULL, err: File::NULL, cpus: nil, death_signal: true,
        containment: Containment.current)
        child = new(argv, env: env, chdir: chdir, out: out, err: err, cpus: cpus, death_signal: death_signal,
          containment: containment)
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
              return [TextFile.read(out.path), TextFile.read(err.path), exit]
            ensure
              child.stop
            end
          end
        end
      end

      # Raised by capture when the command runs past its deadline.
      class Timeout < Error; end

      def initialize(argv, env:, chdir:, out:, err:, cpus:, death_signal:, containment:)
        @argv = argv.map(&:to_s)
        @env = env.transform_keys(&:to_s).transform_values { |v| v&.to_s }
        @containment = containment
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
        parent = Process.pid
        @slot = @containment.slot
        @env[Sweep::ENV_KEY] = @slot.env_value(ENV[Sweep::ENV_KEY])
        reader, writer = IO.pipe
        @started_at = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        @pid = Process.fork do
          reader.close
          exec_in_child(parent, writer)
        end
        writer.close
        # The child reports the moment it calls exec and its resource usage then, so that wall_s, CPU
        # time and context switches start there, as they would for a shell running the command; fork
        # and setup (the move into its cgroup waits for the kernel) are rubyrig's cost, not the
        # command's. Reading to the end waits for the exec itself (the pipe closes on exec), so that
        # nothing samples the forked copy of rubyrig, whose memory is rubyrig's, not the command's.
        report = reader.read.to_s
        reader.close
        if report.bytesize == REPORT_BYTES
          exec_at, joined, *@usage_at_exec = report.unpack(REPORT_FORMAT)
          @started_at = exec_at
          @slot.joined! if joined == 1
        end
        begin
          Process.setpgid(@pid, @pid)
        rescue Errno::EACCES, Errno::ESRCH # the child already ran setpgid and exec'd, or already exited
          nil
        end
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

      # Stops the whole group: TERM, up to grace_s for the leader to exit, then KILL; then kills every
      # descendant that left the group (its cgroup, or its marker). Safe to call twice, and after a
      # normal exit it still sweeps up anything the child left behind.
      def stop(grace_s: 2.0)
        return unless @pid
        unless exited?
          signal_group("TERM")
          wait(timeout_s: grace_s)
        end
        signal_group("KILL")
        wait(timeout_s: 5)
        @slot.sweep
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

      # Runs in the forked child: own process group, death signal, its cgroup, pinning, then exec. Never
      # returns. The cgroup move can take milliseconds (the kernel waits for an RCU grace period); it
      # comes before the clock and the usage are read, so it is in none of the measurements.
      def exec_in_child(parent, clock_pipe)
        Process.setpgid(0, 0)
        if @death_signal
          Libc.set_death_signal("KILL")
          exit!(EXEC_FAILED) if Process.ppid != parent
        end
        joined = @slot.join
        Libc.pin_to_cpus(@cpus) if @cpus
        options = {in: File::NULL, out: @out, err: @err, close_others: true}
        options[:chdir] = @chdir if @chdir
        usage = Reaper.self_fields
        clock_pipe.write([Process.clock_gettime(Process::CLOCK_MONOTONIC), joined ? 1 : 0, *usage].pack(REPORT_FORMAT))
        clock_pipe.flush # left open: it closes on exec (close-on-exec), which tells the parent exec happened
        exec(@env, [@argv.first, @argv.first], *@argv.drop(1), **options)
      rescue SystemCallError => e # exec failed (e.g. permission denied): report like a shell would
        $stderr.write("rubyrig: cannot run #{@argv.first}: #{e.message}\n")
        exit!(EXEC_FAILED)
      end

      def reap
        usage = Reaper.wait(@pid, before: @usage_at_exec)
        finished = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        @exit = Exit.new(wall_s: finished - @started_at, **usage.to_h).freeze
      end
    end
  end
end
