# The few Linux C library calls Ruby does not expose, bound through Fiddle: wait4 (resource usage of a
# reaped child), prctl (death signal), setpriority (a thread's nice value), sched_setaffinity (CPU
# pinning), statvfs (free disk space), dup2, and posix_spawn (see Spawn).
require "fiddle"

module Rubyrig
  module Processes
    module Libc
      PR_SET_PDEATHSIG = 1
      PRIO_PROCESS = 0
      CPU_SET_BYTES = 128 # cpu_set_t: 1024 CPUs
      STATVFS_BYTES = 256 # struct statvfs is 112 bytes on 64-bit Linux; room to spare

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
