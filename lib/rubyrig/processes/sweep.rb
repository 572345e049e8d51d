# Kills what is left of a rubyrig process's children: a cgroup v2 with everything in it (cgroup.kill),
# or every process whose environment carries a given containment marker. Shared by Containment (inside
# rubyrig) and the watchdog (a separate process), so it uses nothing but Ruby's core.
module Rubyrig
  module Processes
    module Sweep
      ENV_KEY = "RUBYRIG_CONTAINMENT"
      # A containment's token is "<owner's PID namespace>-<owner pid>-<owner start time in clock
      # ticks>-<containment number>"; a marker adds ".<child number>".
      TOKEN = /\A\d+-\d+-\d+-\d+\z/
      MARKER = /\A\d+-\d+-\d+-\d+\.\d+\z/
      POLL_S = 0.005
      # How many rounds of scan-and-kill before giving up on processes that keep forking.
      ROUNDS = 50

      module_function

      # Kills every process in the cgroup `dir` and its descendants, waits up to timeout_s for them to
      # exit, then removes the directories. Returns true when the cgroup is gone.
      def kill_cgroup(dir, timeout_s: 5.0)
        return true unless File.directory?(dir)
        File.write(File.join(dir, "cgroup.kill"), "1")
        deadline = now + timeout_s
        sleep POLL_S while populated?(dir) && now < deadline
        remove_tree(dir)
      rescue SystemCallError # already removed by another sweep, or not ours to kill
        !File.directory?(dir)
      end

      def populated?(dir)
        File.read(File.join(dir, "cgroup.events"))[/^populated (\d)/, 1] == "1"
      rescue SystemCallError # the cgroup is gone
        false
      end

      # Removes a cgroup and the cgroups below it, deepest first (a cgroup with children cannot go).
      def remove_tree(dir)
        Dir.children(dir).each do |name|
          path = File.join(dir, name)
          remove_tree(path) if File.directory?(path)
        end
        Dir.rmdir(dir)
        true
      rescue SystemCallError # still populated, or removed meanwhile
        !File.directory?(dir)
      end

      # KILLs every live process whose markers satisfy the block, again and again until a scan finds
      # none (a process may fork while the sweep runs). Returns the pids killed.
      def kill_marked(&block)
        killed = []
        ROUNDS.times do
          found = marked(&block)
          break if found.empty?
          found.each do |pid|
            Process.kill("KILL", pid)
            killed << pid
          rescue Errno::ESRCH, Errno::EPERM # exited meanwhile, or not ours
            nil
          end
          sleep POLL_S
        end
        killed.uniq
      end

      # Pids of live processes (other than this one) whose containment markers satisfy the block.
      def marked
        Dir.children("/proc").filter_map do |name|
          next unless name.match?(/\A\d+\z/)
          pid = name.to_i
          next if pid == Process.pid
          list = markers(pid)
          pid if list && yield(list)
        end
      end

      # The containment markers in a process's environment, or nil without any (or when unreadable).
      def markers(pid)
        environ = File.binread("/proc/#{pid}/environ")
        return nil unless environ.include?(ENV_KEY)
        entry = environ.split("\0").find { |e| e.start_with?("#{ENV_KEY}=") }
        entry&.delete_prefix("#{ENV_KEY}=")&.split(" ")
      rescue SystemCallError # exited while we looked, or another user's process
        nil
      end

      # "<pid>-<start ticks>" of a process now (the same pid later is another process when its start
      # time differs), or nil when it does not exist.
      def token(pid)
        stat = File.binread("/proc/#{pid}/stat") # bytes: the name in it may be any
        "#{pid}-#{stat[(stat.rindex(")") + 2)..].split[19]}"
      rescue SystemCallError # no such process
        nil
      end

      # Whether the rubyrig that a token or marker names has ended: no process with its pid and start
      # time. Only a token from this PID namespace can tell: a rubyrig in a chroot or container with its
      # own PID namespace (and the same cgroups and /proc) names pids that mean nothing here.
      def owner_gone?(token_or_marker)
        namespace, pid, ticks = token_or_marker.split(/[-.]/)
        namespace.to_i == pid_namespace && token(pid.to_i) != "#{pid}-#{ticks}"
      end

      # This process's PID namespace, as the inode number the kernel gives it.
      def pid_namespace
        File.stat("/proc/self/ns/pid").ino
      rescue SystemCallError # no namespaces in /proc (a kernel without them): every process shares one
        0
      end

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end
