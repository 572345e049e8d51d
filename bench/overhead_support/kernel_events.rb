# The kernel's own record of when processes exec and exit, from the proc connector (a netlink socket;
# needs root, CAP_NET_ADMIN): each event carries the kernel's timestamp on the monotonic clock, so the
# life of a process (exec to exit) is known whatever any program's scheduling did. A thread reads every
# event of the machine and keeps, for each process that exec'd, its life and its ancestors at exec.
require "socket"

class KernelEvents
  AF_NETLINK = 16
  NETLINK_CONNECTOR = 11
  CN_IDX_PROC = 1
  PROC_CN_MCAST_LISTEN = 1
  NLMSG_DONE = 3
  SO_RCVBUFFORCE = 33
  FORK = 0x1
  EXEC = 0x2
  EXIT = 0x80000000
  EVENT_AT = 36 # after struct nlmsghdr (16 bytes) and struct cn_msg (20 bytes)
  ANCESTORS = 4

  # One process's life as the kernel recorded it, in seconds on the monotonic clock: its fork (nil when
  # the listener did not see it), its exec and its exit.
  Life = Struct.new(:pid, :fork_s, :exec_s, :exit_s, :ancestors, keyword_init: true) do
    def duration_s = exit_s - exec_s
  end

  class << self
    attr_reader :why_not

    # A listening KernelEvents, or nil (why_not says why) where the proc connector is not open to us.
    def open
      new.start
    rescue SystemCallError => e # not root, no CONFIG_PROC_EVENTS, or in a network namespace without it
      @why_not = "the proc connector is closed to this process: #{e.message}; run as root for the breakdown"
      nil
    end
  end

  attr_reader :lost

  def initialize
    @parent = {}
    @forked_at = {}
    @execs = {}
    @lives = []
    @lost = 0
    @lock = Mutex.new
    @done = ConditionVariable.new
  end

  def start
    @socket = Socket.new(AF_NETLINK, Socket::SOCK_DGRAM, NETLINK_CONNECTOR)
    @socket.setsockopt(Socket::SOL_SOCKET, SO_RCVBUFFORCE, 16 * 1024 * 1024)
    @socket.bind([AF_NETLINK, 0, 0, CN_IDX_PROC].pack("SSLL"))
    listen = [PROC_CN_MCAST_LISTEN].pack("L")
    message = [CN_IDX_PROC, 1, 0, 0, listen.bytesize, 0].pack("LLLLSS") + listen
    @socket.send([16 + message.bytesize, NLMSG_DONE, 0, 0, Process.pid].pack("LSSLL") + message, 0, [AF_NETLINK, 0, 0, 0].pack("SSLL"))
    @thread = Thread.new { loop { read_event } }
    self
  end

  def close
    @thread.kill.join
    @socket.close
  end

  # Lives of the processes whose ancestor `depth` generations up is root, in the order they exec'd.
  # Waits until the listener has caught up with the present (a process of its own, run now, is seen).
  def lives(root, depth:)
    catch_up
    @lock.synchronize { @lives.select { |l| l.ancestors[depth - 1] == root }.sort_by(&:exec_s) }
  end

  private

  def catch_up(timeout_s: 10)
    marker = Process.spawn("true")
    Process.wait(marker)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout_s
    @lock.synchronize do
      until @lives.any? { |l| l.pid == marker } || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
        @done.wait(@lock, 0.05)
      end
    end
  end

  def read_event
    data = @socket.recv(4096)
    return if data.bytesize < EVENT_AT + 32 # the reply to the listen request carries no event
    what, _cpu, ns = data.byteslice(EVENT_AT, 16).unpack("LLQ")
    ids = data.byteslice(EVENT_AT + 16, 16).unpack("LLLL")
    @lock.synchronize { record(what, ns / 1e9, ids) }
  rescue Errno::ENOBUFS # the machine made events faster than this thread read them
    @lost += 1
  end

  def record(what, at_s, ids)
    case what
    when FORK
      _parent_pid, parent_tgid, child_pid, child_tgid = ids
      return unless child_pid == child_tgid
      @parent[child_tgid] = parent_tgid
      @forked_at[child_tgid] = at_s
    when EXEC
      tgid = ids[1]
      @execs[tgid] ||= [at_s, ancestors(tgid), @forked_at[tgid]]
    when EXIT
      pid, tgid = ids
      return unless pid == tgid
      @parent.delete(tgid)
      @forked_at.delete(tgid)
      exec_s, chain, fork_s = @execs.delete(tgid)
      return unless exec_s
      @lives << Life.new(pid: tgid, fork_s: fork_s, exec_s: exec_s, exit_s: at_s, ancestors: chain).freeze
      @done.broadcast
    end
  end

  def ancestors(pid)
    chain = []
    ANCESTORS.times do
      pid = @parent[pid]
      break unless pid
      chain << pid
    end
    chain
  end
end
