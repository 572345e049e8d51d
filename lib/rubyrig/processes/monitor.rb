# Samples a process tree from /proc in a background thread: RSS of the whole tree (peak and last),
# thread counts, CPU time, and on request PSS. It reads only /proc, so it adds no work to the target,
# and it keeps out of the target's way: its thread runs at the lowest priority (nice 19), on CPUs the
# target may not use when the target is pinned, so that it never takes a CPU the target could run on.
# Its thread can start before the target does (#watch names the target then): creating a thread as the
# target starts took CPU time from the target's exec (0.25 ms more from the clock to the exec); and its
# first sample can wait (first_sample_s) until the target is under way. With no sample, the peak is nil.
module Rubyrig
  module Processes
    class Monitor
      PAGE_BYTES = 4096
      CLOCK_TICKS = 100.0 # USER_HZ on Linux

      # One reading of the tree at a moment on the monotonic clock.
      Sample = Struct.new(:at, :pids, :rss_bytes, :threads, :cpu_s, keyword_init: true)

      attr_reader :peak_rss_bytes, :last, :samples_taken

      # root_pid: the tree's root, or nil until #watch names it. first_sample_s: how long after the root
      # is named the first sample comes (see #start).
      def initialize(root_pid = nil, interval_s: 0.2, first_sample_s: 0.0, proc_dir: "/proc")
        @root_pid = root_pid
        @root = Queue.new
        @root << root_pid if root_pid
        @interval_s = interval_s
        @first_sample_s = first_sample_s
        @proc_dir = proc_dir
        @peak_rss_bytes = nil
        @last = nil
        @samples_taken = 0
        @stop = false
        @lock = Mutex.new
      end

      def start
        @thread = Thread.new do
          Libc.set_thread_nice(Thread.current.native_thread_id, LOWEST_PRIORITY)
          next unless @root.pop # closed by #stop before a root was named
          sleep @first_sample_s if @first_sample_s.positive?
          step_aside unless @stop
          until @stop
            sample
            sleep @interval_s unless @stop
          end
        end
        self
      end

      # Names the root of the tree to sample, for a monitor made without one; its sampling starts now.
      def watch(root_pid)
        @root_pid = root_pid
        @root << root_pid
        self
      end

      def stop
        @root.close
        @stop = true
        @thread&.wakeup
        @thread&.join
        self
      rescue ThreadError # the thread already ended between the check and the wakeup
        @thread&.join
        self
      end

      # Takes one sample now and returns it (nil when the tree is gone).
      def sample
        pids = tree
        return nil if pids.empty?
        rss = 0
        threads = 0
        cpu_ticks = 0
        pids.each do |pid|
          fields = stat_fields(pid)
          next unless fields
          threads += fields[17].to_i
          cpu_ticks += fields[11].to_i + fields[12].to_i
          rss += fields[21].to_i * PAGE_BYTES
        end
        reading = Sample.new(at: Process.clock_gettime(Process::CLOCK_MONOTONIC), pids: pids, rss_bytes: rss,
          threads: threads, cpu_s: cpu_ticks / CLOCK_TICKS).freeze
        @lock.synchronize do
          @samples_taken += 1
          @peak_rss_bytes = rss if rss > @peak_rss_bytes.to_i
          @last = reading
        end
        reading
      end

      # PSS of every process in the tree now, summed (smaps_rollup is costly, so only on request).
      def pss_bytes
        tree.sum do |pid|
          text = read("#{@proc_dir}/#{pid}/smaps_rollup")
          m = text&.match(/^Pss:\s+(\d+) kB/)
          m ? m[1].to_i * 1024 : 0
        end
      end

      # The root and all its descendants that are alive now.
      def tree
        found = []
        queue = [@root_pid]
        until queue.empty?
          pid = queue.shift
          next unless File.directory?("#{@proc_dir}/#{pid}")
          found << pid
          queue.concat(children(pid))
        end
        found
      end

      private

      LOWEST_PRIORITY = 19

      # In the sampling thread: the lowest priority for this thread alone, and the CPUs the root may not
      # run on, if any (a refusal leaves it where it was: sampling still works).
      def step_aside
        status = read("#{@proc_dir}/#{@root_pid}/status")
        target = status && status[/^Cpus_allowed_list:\s*(\S+)/, 1]
        return unless target
        free = CpuSplit.allowed - CpuList.parse(target)
        Libc.pin_to_cpus(CpuList.format(free)) unless free.empty?
      end

      def children(pid)
        Dir.glob("#{@proc_dir}/#{pid}/task/*/children").flat_map do |file|
          read(file).to_s.split.map(&:to_i)
        end
      rescue Errno::ESRCH, Errno::ENOENT # the process exited while its task list was read: no children left
        []
      end

      # Fields of /proc/PID/stat after the command name, 0-based from "state".
      def stat_fields(pid)
        text = read("#{@proc_dir}/#{pid}/stat")
        return nil unless text
        text[(text.rindex(")") + 2)..].split
      end

      # As bytes: a process's name (in stat) is whatever it set, not always valid UTF-8.
      def read(path)
        File.binread(path)
      rescue Errno::ENOENT, Errno::ESRCH, Errno::EACCES # the process exited between listing and reading
        nil
      end
    end
  end
end
