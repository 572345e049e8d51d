# Keeps every process a rubyrig starts, and everything those start, within reach, so that nothing of a
# run outlives rubyrig, even after kill -9 and whatever the processes do (double fork, setsid):
# - each child runs in a cgroup v2 of its own under the run's cgroup, where rubyrig may create one
#   (root, or a delegated subtree), and stopping the child kills its cgroup (cgroup.kill);
# - each child carries a marker in its environment (RUBYRIG_CONTAINMENT), which its descendants inherit;
#   without cgroups, stopping a child kills every process with its marker;
# - a watchdog process holds a pipe from rubyrig, through which rubyrig names each child's process
#   group, and, when rubyrig ends in any way, kills the run's cgroup, the groups still running with
#   every descendant of theirs, and every process with the run's marker (a process may rewrite the
#   environment /proc shows, as redis-server's title does, but not leave its group and its parent
#   unseen);
# - when the watchdog itself was killed too, the next rubyrig reaps what the dead one left (stale
#   cgroups and markers of a rubyrig that no longer runs, in its own PID namespace: a rubyrig in a
#   chroot or container beside it is left alone).
require "rbconfig"

module Rubyrig
  module Processes
    class Containment
      WATCHDOG = File.expand_path("watchdog.rb", __dir__)
      CGROUP_PREFIX = "rubyrig-"

      # One child's place in the containment: its marker and, with cgroups, its own cgroup directory.
      class Slot
        attr_reader :marker, :cgroup

        def initialize(marker:, cgroup:)
          @marker = marker
          @cgroup = cgroup
          @joined = false
        end

        # The environment value: markers of an enclosing rubyrig (when rubyrig runs under rubyrig) kept.
        def env_value(inherited) = [*inherited.to_s.split(" "), @marker].join(" ")

        # In the forked child before exec: moves it into its cgroup. False when that failed (then its
        # marker is what finds it and its descendants).
        def join
          return false unless @cgroup
          File.write(File.join(@cgroup, "cgroup.procs"), "0")
          true
        rescue SystemCallError # the cgroup was refused or removed; the marker still holds
          false
        end

        def joined! = @joined = true

        # Without its cgroup, before the child's group is signalled: the descendants that left the
        # group (a session of their own), which the signal does not reach and which, once their
        # parent is gone, only their marker would find; sweep kills them too.
        def note_strays(pgid)
          @strays = Sweep.strays(pgid) unless @joined
        end

        # Kills everything left of this child and its descendants, and removes its cgroup. Safe to repeat.
        def sweep
          Sweep.kill_listed(@strays) if @strays
          Sweep.kill_marked { |markers| markers.include?(@marker) } unless @joined
          Sweep.kill_cgroup(@cgroup) if @cgroup
        end
      end

      @current = nil
      @lock = Mutex.new
      @instances = 0

      # A number for each containment of this process, so that their cgroups and markers stay apart.
      def self.next_number = @lock.synchronize { @instances += 1 }

      # The containment of this process, started at its first use (and again in a forked copy).
      def self.current
        @lock.synchronize do
          @current = nil if @current && @current.owner_pid != Process.pid
          @current ||= new(number: @instances += 1).start
        end
      end

      attr_reader :owner_pid, :token, :cgroup, :watchdog_pid

      # cgroups: false keeps to markers (what a machine without a writable cgroup v2 gets); number tells
      # several containments of one process apart (tests make their own).
      def initialize(cgroups: true, number: self.class.next_number)
        @use_cgroups = cgroups
        @owner_pid = Process.pid
        @token = "#{Sweep.pid_namespace}-#{Sweep.token(@owner_pid)}-#{number}"
        @count = 0
        @count_lock = Mutex.new
        @lifeline_lock = Mutex.new
      end

      # Reaps what dead rubyrigs left, creates the run's cgroup when possible and starts the watchdog.
      # When this process exits normally, it lets the watchdog sweep and waits for it (close), so that
      # nothing of the run, the watchdog included, is left once rubyrig has exited.
      def start
        base = @use_cgroups ? self.class.cgroup_base : nil
        reap_stale(base)
        @cgroup = create_cgroup(base) if base
        start_watchdog
        at_exit { close if Process.pid == @owner_pid }
        self
      end

      # Lets the watchdog sweep (it kills what is left, removes the cgroup and exits) and waits up to
      # timeout_s for it. Safe to repeat; a containment is not used after it is closed.
      def close(timeout_s: 10)
        lifeline = @lifeline_lock.synchronize { @lifeline.tap { @lifeline = nil } }
        return unless lifeline
        lifeline.close
        deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout_s
        sleep 0.005 until reaped_watchdog? || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      end

      # How this containment reaches every process, for `rubyrig doctor` and the docs.
      def mechanism = @cgroup ? "cgroup v2 (#{@cgroup})" : "process groups and their descendants, and the environment marker #{Sweep::ENV_KEY}"

      # Names a child's process group (its leader's pid) to the watchdog, which kills it and its
      # descendants if rubyrig dies before it calls release; nothing when the leader is already gone.
      def watch(pgid)
        token = Sweep.token(pgid)
        tell("+#{token}\n") if token
      end

      # The group has been stopped: the watchdog forgets it.
      def release(pgid) = tell("-#{pgid}\n")

      # A new slot for one child: the next marker and, with cgroups, a fresh cgroup directory.
      def slot
        number = @count_lock.synchronize { @count += 1 }
        dir = @cgroup && File.join(@cgroup, "child-#{number}")
        begin
          Dir.mkdir(dir) if dir
        rescue SystemCallError # the run's cgroup went away; fall back to the marker for this child
          dir = nil
        end
        Slot.new(marker: "#{@token}.#{number}", cgroup: dir)
      end

      # The directory of this process's own cgroup v2, or nil without a cgroup2 mount.
      def self.cgroup_base
        own = File.read("/proc/self/cgroup")[/^0::(\S+)$/, 1]
        mount = File.readlines("/proc/self/mountinfo").map(&:split).find { |f| f[f.index("-") + 1] == "cgroup2" }
        return nil unless own && mount
        root, point = mount[3], mount[4]
        return nil unless own == root || own.start_with?(root.chomp("/") + "/")
        File.expand_path(own.delete_prefix(root.chomp("/")).delete_prefix("/"), point)
      rescue SystemCallError # no /proc/self/cgroup: not Linux, or /proc is not mounted
        nil
      end

      private

      # A cgroup for this rubyrig's children, if this user may create one there and move processes into
      # it, and the kernel can kill a whole cgroup (cgroup.kill, Linux 5.14).
      def create_cgroup(base)
        return nil unless File.writable?(File.join(base, "cgroup.procs"))
        dir = File.join(base, "#{CGROUP_PREFIX}#{@token}")
        Dir.mkdir(dir)
        return dir if File.exist?(File.join(dir, "cgroup.kill"))
        Dir.rmdir(dir)
        nil
      rescue SystemCallError # read-only cgroupfs (a container), no permission: markers only
        nil
      end

      # Kills what a rubyrig that no longer runs left behind, here and in the cgroups beside this one.
      def reap_stale(base)
        if base
          Dir.glob(File.join(base, "#{CGROUP_PREFIX}*")).each do |dir|
            owner = File.basename(dir).delete_prefix(CGROUP_PREFIX)
            Sweep.kill_cgroup(dir) if owner.match?(Sweep::TOKEN) && Sweep.owner_gone?(owner)
          end
        end
        Sweep.kill_marked do |markers|
          markers.any? { |m| m.match?(Sweep::MARKER) && Sweep.owner_gone?(m) }
        end
      end

      # The watchdog: a separate Ruby reading the pipe whose write end only this process holds (it is
      # close-on-exec, so children do not inherit it). Its own process group keeps Ctrl-C away from it.
      # It is reaped by close rather than by a thread waiting for it (Process.detach), so that rubyrig
      # runs no thread of its own beside those that measure.
      def start_watchdog
        reader, @lifeline = IO.pipe
        @watchdog_pid = Process.spawn({"RUBYOPT" => nil, "RUBYLIB" => nil}, RbConfig.ruby, "--disable-gems", WATCHDOG,
          @token, @cgroup.to_s, in: reader, out: File::NULL, err: File::NULL, pgroup: true)
        reader.close
      end

      # One line to the watchdog (a write below the pipe's atomic size, never split); nothing once the
      # containment is closed or the watchdog is gone.
      def tell(line)
        @lifeline_lock.synchronize { @lifeline&.write(line) }
      rescue Errno::EPIPE, IOError # the watchdog was killed: the marker and the next rubyrig remain
        nil
      end

      def reaped_watchdog?
        !Process.waitpid(@watchdog_pid, Process::WNOHANG).nil?
      rescue Errno::ECHILD # already reaped
        true
      end
    end
  end
end
