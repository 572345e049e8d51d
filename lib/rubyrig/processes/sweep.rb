# Kills what is left of a rubyrig process's children: a cgroup v2 with everything in it (cgroup.kill),
# the process groups rubyrig started with every descendant of theirs, or every process whose environment
# carries a given containment marker. Shared by Containment (inside rubyrig) and the watchdog (a
# separate process), so it uses nothing but Ruby's core.
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

      # STOPs every live process in the given process groups and every descendant of theirs, whatever
      # group, session or environment it has moved to, in rounds until a scan finds no new one (a
      # stopped process cannot fork), then KILLs them all. groups: leader pid => the leader's start
      # ticks when rubyrig started it; a group whose number now belongs to another process (a reused
      # pid) is left alone. Returns the pids killed.
      def kill_groups(groups)
        held = []
        ROUNDS.times do
          table = process_table
          found = descendants(table, in_groups(table, groups)) - held
          break if found.empty?
          found.each { |pid| held << pid if signal("STOP", pid) }
          sleep POLL_S
        end
        held.each { |pid| signal("KILL", pid) }
      end

      # The live descendants of the members of group pgid that are in another group now, as
      # pid => start ticks.
      def strays(pgid)
        table = process_table
        members = table.filter_map { |pid, (_, group, _)| pid if group == pgid }
        descendants(table, members).each_with_object({}) do |pid, found|
          found[pid] = table[pid][2] unless table[pid][1] == pgid
        end
      end

      # KILLs each listed process (pid => start ticks) that still runs, and no process that took a pid since.
      def kill_listed(listed)
        listed.each { |pid, ticks| signal("KILL", pid) if token(pid) == "#{pid}-#{ticks}" }
      end

      # Live processes now: pid => [parent pid, process group, start ticks] (zombies left out).
      def process_table
        Dir.children("/proc").each_with_object({}) do |name, table|
          next unless name.match?(/\A\d+\z/)
          stat = File.binread("/proc/#{name}/stat")
          fields = stat[(stat.rindex(")") + 2)..].split
          table[name.to_i] = [fields[1].to_i, fields[2].to_i, fields[19].to_i] unless fields[0] == "Z"
        rescue SystemCallError # exited while we looked
          nil
        end
      end

      # Pids in the table whose group is one of groups and still the one rubyrig started: its leader is
      # the same process, or gone (a pid is not reused while a group of that number has members).
      def in_groups(table, groups)
        table.filter_map do |pid, (_, pgid, _)|
          next if pid == Process.pid || !groups.key?(pgid)
          leader = table[pgid]
          pid if leader.nil? || leader[2] == groups[pgid]
        end
      end

      # The pids given and every descendant of theirs in the table.
      def descendants(table, pids)
        children = Hash.new { |h, k| h[k] = [] }
        table.each { |pid, (ppid, _, _)| children[ppid] << pid }
        found = pids.dup
        found.each { |pid| found.concat(children[pid] - found) }
      end

      # Sends a signal to one process; false when it has exited or is not ours.
      def signal(name, pid)
        Process.kill(name, pid)
        true
      rescue Errno::ESRCH, Errno::EPERM # exited meanwhile, or not ours
        false
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
