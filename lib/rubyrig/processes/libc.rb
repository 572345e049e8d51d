# The few Linux C library calls Ruby does not expose, bound through Fiddle: wait4 (resource usage of a
# reaped child), prctl (death signal), setpriority (a thread's nice value), sched_setaffinity (CPU
# pinning), sched_setattr (a short time slice), statvfs (free disk space), dup2, and posix_spawn (see Spawn).
require "fiddle"
require "rbconfig"

module Rubyrig
  module Processes
    module Libc
      PR_SET_PDEATHSIG = 1
      PRIO_PROCESS = 0
      CPU_SET_BYTES = 128 # cpu_set_t: 1024 CPUs
      STATVFS_BYTES = 256 # struct statvfs is 112 bytes on 64-bit Linux; room to spare
      SCHED_SETATTR = {"x86_64" => 314, "aarch64" => 274}.freeze # the syscall's number: glibc has no wrapper
      SCHED_OTHER = 0
      SCHED_FLAG_RESET_ON_FORK = 0x01
      SCHED_ATTR = "LLQlLQQQLL" # struct sched_attr, 56 bytes: size, policy, flags, nice, priority,
      # runtime, deadline, period, util_min, util_max

      module_function

      def wait4(pid, status_ptr, options, rusage_ptr)
        function(:wait4, [Fiddle::TYPE_INT, Fiddle::TYPE_VOIDP, Fiddle::TYPE_INT, Fiddle::TYPE_VOIDP])
          .call(pid, status_ptr, options, rusage_ptr)
      end

      # dup2(2) on bare descriptor numbers, whatever Ruby objects hold them; false when refused.
      def dup2(from_fd, to_fd) = function(:dup2, [Fiddle::TYPE_INT, Fiddle::TYPE_INT]).call(from_fd, to_fd) == to_fd

      # Asks the kernel to send `signal` to this process when its parent dies.
      def set_death_signal(signal)
        number = Signal.list.fetch(signal)
        function(:prctl, [Fiddle::TYPE_INT, Fiddle::TYPE_LONG, Fiddle::TYPE_LONG, Fiddle::TYPE_LONG, Fiddle::TYPE_LONG])
          .call(PR_SET_PDEATHSIG, number, 0, 0, 0).zero?
      end

      # Sets the nice value of one thread (its id as gettid(2) gives it); false when refused. Raising it
      # needs no privilege.
      def set_thread_nice(thread_id, nice)
        function(:setpriority, [Fiddle::TYPE_INT, Fiddle::TYPE_INT, Fiddle::TYPE_INT]).call(PRIO_PROCESS, thread_id, nice).zero?
      end

      # Pins the calling thread (the whole process while it has one) to the CPUs in a list such as "1" or
      # "0-1,3"; false when refused.
      def pin_to_cpus(list)
        mask = "\0".b * CPU_SET_BYTES
        CpuList.parse(list).each { |cpu| mask.setbyte(cpu / 8, mask.getbyte(cpu / 8) | (1 << (cpu % 8))) }
        function(:sched_setaffinity, [Fiddle::TYPE_INT, Fiddle::TYPE_SIZE_T, Fiddle::TYPE_VOIDP])
          .call(0, CPU_SET_BYTES, Fiddle::Pointer[mask]).zero?
      end

      # Gives this process a time slice of slice_ns (Linux 6.12+: sched_attr's runtime for an ordinary
      # task; 0.1 ms is the least granted), keeping its nice value; its children start with the default.
      # With a short slice, a task woken on a CPU another task is using runs at once instead of at that
      # task's next tick. No privilege is needed; false where it is refused or unknown (an older kernel,
      # another architecture), or where this process is not under the ordinary policy (chrt) or has a
      # negative nice value (which the reset on fork would take from its children), left alone then.
      def request_slice(slice_ns)
        number = SCHED_SETATTR[RbConfig::CONFIG["host_cpu"]]
        nice = Process.getpriority(Process::PRIO_PROCESS, 0)
        return false unless number && ordinary_policy? && nice >= 0
        attr = [56, SCHED_OTHER, SCHED_FLAG_RESET_ON_FORK, nice, 0, slice_ns, 0, 0, 0, 0]
        function(:syscall, [Fiddle::TYPE_LONG, Fiddle::TYPE_LONG, Fiddle::TYPE_VOIDP, Fiddle::TYPE_LONG])
          .call(number, 0, Fiddle::Pointer[attr.pack(SCHED_ATTR)], 0).zero?
      end

      # Whether this process runs under SCHED_OTHER, the policy of every process nobody changed.
      def ordinary_policy? = function(:sched_getscheduler, [Fiddle::TYPE_INT]).call(0) == SCHED_OTHER

      # Bytes this process may still write on the file system holding path (the root user may use the
      # blocks reserved for it); nil when statvfs fails.
      def free_bytes(path)
        buffer = Fiddle::Pointer.malloc(STATVFS_BYTES, Fiddle::RUBY_FREE)
        return nil unless function(:statvfs, [Fiddle::TYPE_VOIDP, Fiddle::TYPE_VOIDP]).call(path, buffer).zero?
        _bsize, frsize, _blocks, bfree, bavail = buffer.to_str(40).unpack("Q5")
        (Process.euid.zero? ? bfree : bavail) * frsize
      end

      # Whether this C library has the function (posix_spawn_file_actions_addclosefrom_np: glibc 2.34).
      def has?(name)
        Fiddle::Handle::DEFAULT[name.to_s]
        true
      rescue Fiddle::DLError # an older C library
        false
      end

      def function(name, args)
        @functions ||= {}
        @functions[name] ||= Fiddle::Function.new(Fiddle::Handle::DEFAULT[name.to_s], args, Fiddle::TYPE_INT)
      end
    end
  end
end
