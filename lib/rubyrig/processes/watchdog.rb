# rubyrig's watchdog, a process of its own that each rubyrig starts (Containment) with a pipe from
# rubyrig as its stdin. rubyrig never writes to the pipe; the kernel closes it when rubyrig ends in
# any way, kill -9 included. Then the watchdog kills the run's cgroup and every process carrying the
# run's marker, removes the cgroup and exits. Run as: ruby --disable-gems watchdog.rb TOKEN [CGROUP]
require_relative "sweep"

token, cgroup = ARGV
Process.setproctitle("rubyrig-watchdog #{token}")
# Only the pipe ends the watchdog: Ctrl-C, a closing terminal or a TERM to the group reach rubyrig,
# which ends, and the watchdog then sweeps what rubyrig could not.
%w[INT TERM HUP QUIT PIPE].each { |signal| trap(signal, "IGNORE") }
$stdin.read
Rubyrig::Processes::Sweep.kill_cgroup(cgroup) if cgroup && !cgroup.empty?
Rubyrig::Processes::Sweep.kill_marked { |markers| markers.any? { |m| m.start_with?("#{token}.") } }
exit!(0)
