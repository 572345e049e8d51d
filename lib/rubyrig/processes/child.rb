# Owns one spawned process and everything it starts: spawns it from an argv in its own process group
# and its own place in the Containment, times it as hyperfine does (a single-threaded timer process
# starts it and waits for it), waits with a deadline, and stops the whole group (TERM, a grace period,
# then KILL), then kills whatever of its descendants left the group, so that nothing outlives it.
require "json"

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
      # The timer's time slice: the least the scheduler grants, so that when the command's exec or its
      # exit wakes the timer on a machine whose CPUs are all busy, the timer gets a CPU at once to read
      # the clock, instead of at the busy task's next tick (4 ms later at 250 Hz: bench/overhead
      # --busy). The command, which it starts, has the default slice.
      TIMER_SLICE_NS = 100_000

      attr_reader :pid, :argv, :started_at

      # Spawns argv in a new process group. With cpus: "1" or "0-1" it is pinned to those CPUs. Unless
      # disabled, the kernel KILLs the timer if rubyrig itself dies (kill -9): its death signal is set
      # before it starts the command, and a timer whose parent is already gone exits at once. The
      # command and its descendants, which the death signal does not reach, die by the containment's
      # watchdog (their cgroup, or their process group and its descendants, and their marker).
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

      # Forks the timer: a copy of rubyrig with one thread, which takes the command into its cgroup,
      # pins and prepares it, starts it with posix_spawn and reads the clock as soon as that returns at
      # the command's exec, waits for it with wait4 and reads the clock again as soon as wait4 returns.
      # rubyrig only reads the two readings from a pipe, so its own threads, its GVL and its scheduling
      # cannot delay either end of the interval.
      def start
        path = @env.fetch("PATH") { ENV.fetch("PATH", "") }
        unless Which.find(@argv.first, path: path.to_s)
          raise ToolMissing, "cannot run #{@argv.first}: no such executable; check the path or install it"
        end
        # A path with a slash is taken as given, after the move to chdir, as exec would.
        program = @argv.first.include?("/") ? @argv.first : Which.find(@argv.first, path: path.to_s)
        parent = Process.pid
        @slot = @containment.slot
        @env[Sweep::ENV_KEY] = @slot.env_value(ENV[Sweep::ENV_KEY])
        @report, writer = IO.pipe
        # Built here, so that the timer has less to do and no code to load.
        spawn = Spawn.new(path: program, argv: @argv, env: ENV.to_h.merge(@env).compact)
        wait = Reaper.method(:timed_wait)
        @timer_pid = Process.fork do
          @report.close
          run_timer(parent, spawn, wait, writer)
        end
        writer.close
        @pid, @started_at, joined = read_report || [@timer_pid, Process.clock_gettime(Process::CLOCK_MONOTONIC), false]
        joined ? @slot.joined! : @containment.watch(@pid)
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
      # descendant that left the group (its cgroup, or the strays noted before the TERM and its marker).
      # Safe to call twice, and after a normal exit it still sweeps up anything the child left behind.
      def stop(grace_s: 2.0)
        return unless @pid
        @slot.note_strays(pgid)
        unless exited?
          signal_group("TERM")
          wait(timeout_s: grace_s)
        end
        signal_group("KILL")
        wait(timeout_s: 5)
        @slot.sweep
        @containment.release(@pid)
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

      # Runs in the forked timer and never returns. Its own process group keeps a terminal's Ctrl-C and
      # the signals rubyrig sends the command's group away from it. Every preparation, the cgroup move
      # (which can take milliseconds while the kernel waits for an RCU grace period) and pinning come
      # before the command starts; the command inherits the cgroup, the CPUs and the directory.
      def run_timer(parent, spawn, wait, report)
        # A collection here would write to every page of the heap this fork shares with rubyrig, and the
        # kernel would copy them all, taking CPU time from the command; the timer allocates little.
        GC.disable
        Process.setproctitle("rubyrig-timer #{@argv.first}") # what ps shows, rather than rubyrig's own command line
        fds = standard_fds # opened where rubyrig runs, as Ruby's spawn opens them, then the move to chdir
        release_descriptors([report.fileno, *fds])
        Process.setpgid(0, 0)
        if @death_signal
          Libc.set_death_signal("KILL")
          exit!(EXEC_FAILED) if Process.ppid != parent
        end
        Dir.chdir(@chdir) if @chdir
        spawn.streams(fds)
        allowed = CpuSplit.allowed
        # Last, so that the least work comes between the cgroup move's wait and the clock.
        joined = @slot.join
        Libc.pin_to_cpus(@cpus) if @cpus
        time_command(spawn, wait, report, joined, allowed)
      rescue SystemCallError => e # the command could not start (e.g. permission denied): report like a shell would
        IO.for_fd(fds ? fds[2] : 2, autoclose: false).write("rubyrig: cannot run #{@argv.first}: #{e.message}\n")
        write_report(report, [Process.pid, Process.clock_gettime(Process::CLOCK_MONOTONIC), joined])
      ensure
        exit!(EXEC_FAILED) # never run rubyrig's at_exit handlers in its copy
      end

      # The timer is a fork that does not exec, so close-on-exec does not apply: it lets go of rubyrig's
      # pipes, sockets and files (the containment's lifeline among them, which must close when rubyrig
      # ends) by pointing their numbers at /dev/null, so that no Ruby object of rubyrig's that still
      # names a number can close one reused since. The VM's own event descriptors stay.
      def release_descriptors(keep)
        null = File.open(File::NULL)
        Dir.children("/proc/self/fd").each do |name|
          fd = name.to_i
          next if fd <= 2 || keep.include?(fd) || fd == null.fileno
          Libc.dup2(null.fileno, fd) unless File.readlink("/proc/self/fd/#{fd}").start_with?("anon_inode:")
        rescue Errno::ENOENT # the listing's own descriptor, closed since
          nil
        end
      end

      # Starts the command, reads the clock as soon as the start returns, reports the pid and that
      # reading, waits for the command and reports its end and usage. posix_spawn returns when the
      # command's exec has passed its point of no return (the kernel then lets the vfork parent go), so
      # the interval starts at the exec: the kernel's exec event comes 10-30 us after that reading. What
      # comes before, the clone and its wait for a CPU (3.9 ms on a machine whose CPUs were all busy),
      # is rubyrig starting a process, not the command, and stays out of the figure.
      def time_command(spawn, wait, report, joined, allowed)
        Libc.request_slice(TIMER_SLICE_NS)
        pid = spawn.call
        started_at = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        write_report(report, [pid, started_at, joined])
        Libc.pin_to_cpus(CpuList.format(allowed)) if @cpus # wake on any CPU, not the command's
        usage, finished_at = wait.call(pid)
        write_report(report, [finished_at, usage.to_h])
        exit!(0)
      end

      # stdin from /dev/null; stdout and stderr as given (a path, [path, mode], an IO or [:child, :out]).
      def standard_fds
        out = open_target(@out, nil)
        err = open_target(@err, out)
        [File.open(File::NULL).fileno, out, err]
      end

      def open_target(target, out_fd)
        return out_fd if target == [:child, :out]
        return target.fileno if target.respond_to?(:fileno)
        path, mode, perm = Array(target)
        File.open(path, mode || "w", perm || 0o644).fileno
      end

      # One JSON line: floats round-trip exactly, and a line is read whole.
      def write_report(io, value)
        io.write("#{JSON.generate(value)}\n")
        io.flush
      end

      def read_report
        line = @report.gets
        line && JSON.parse(line)
      end

      # Reads the timer's end reading and the command's usage, then reaps the timer; when the timer
      # died without reporting, the timer's own exit stands in, timed here.
      def reap
        finished_at, usage = read_report
        timer = Reaper.wait(@timer_pid)
        @report.close
        unless usage
          finished_at = Process.clock_gettime(Process::CLOCK_MONOTONIC)
          usage = timer.to_h
        end
        @exit = Exit.new(wall_s: finished_at - @started_at, **usage.transform_keys(&:to_sym)).freeze
      end
    end
  end
end
