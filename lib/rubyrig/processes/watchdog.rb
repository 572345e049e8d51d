# rubyrig's watchdog, a process of its own that each rubyrig starts (Containment) with a pipe from
# rubyrig as its stdin. Through the pipe rubyrig tells it each process group it starts ("+PID-TICKS")
# and stops ("-PID"); the kernel closes the pipe when rubyrig ends in any way, kill -9 included. Then
# the watchdog kills the run's cgroup, the groups still open with every descendant of theirs, and
# every process carrying the run's marker, removes the cgroup and exits. Neither of the last two
# depends on the other: a process that rewrites its environment (redis-server's title) is found by
# its group, one that left its group and its parent by its marker.
# Run as: ruby --disable-gems watchdog.rb TOKEN [CGROUP]
require_relative "sweep"

token, cgroup = ARGV
Process.setproctitle("rubyrig-watchdog #{token}")
# Only the pipe ends the watchdog: Ctrl-C, a closing terminal or a TERM to the group reach rubyrig,
# which ends, and the watchdog then sweeps what rubyrig could not.
%w[INT TERM HUP QUIT PIPE].each { |signal| trap(signal, "IGNORE") }
groups = {}
$stdin.each_line do |line|
  pid, ticks = line[1..].split("-").map(&:to_i)
  (line.start_with?("+") && ticks) ? groups[pid] = ticks : groups.delete(pid)
end
Rubyrig::Processes::Sweep.kill_cgroup(cgroup) if cgroup && !cgroup.empty?
Rubyrig::Processes::Sweep.kill_groups(groups)
Rubyrig::Processes::Sweep.kill_marked { |markers| markers.any? { |m| m.start_with?("#{token}.") } }
exit!(0)
