# Says how a measured process ended, in words a reason can carry: its exit status or signal, plus
# what lies behind two signals that hide the cause. Ruby answers a fatal signal (SIGSEGV, SIGBUS,
# SIGILL) with its crash report, a "[BUG] ..." line, and then aborts (SIGABRT): the reason names the
# fault it reports. A SIGKILL that rubyrig did not send while the kernel's OOM killer ran (the
# oom_kill count in /proc/vmstat rose) is said to look like the OOM killer, and is certain when the
# kernel log, where readable (root), names the process. The log names pids as the machine's first PID
# namespace sees them, so in a container or chroot with its own namespace it cannot name ours.
module Rubyrig
  module Processes
    module ExitCause
      BUG = /\[BUG\] (.+)/
      # Ruby's crash report names the fault in words; the signal behind each.
      FAULTS = {"Segmentation fault" => "SIGSEGV", "Bus Error" => "SIGBUS", "Illegal instruction" => "SIGILL"}.freeze
      KMSG_BYTES = 8192
      # The kernel's fixed inode for the first PID namespace (PROC_PID_INIT_INO), as /proc/self/ns/pid shows it.
      INITIAL_PID_NAMESPACE = "pid:[4026531836]"

      module_function

      # The kernel's count of OOM kills since boot, or nil where /proc/vmstat does not say.
      def oom_kills(vmstat = "/proc/vmstat")
        File.read(vmstat)[/^oom_kill (\d+)$/, 1]&.to_i
      rescue SystemCallError # no /proc
        nil
      end

      # How exit came about, e.g. "killed by SIGKILL from the kernel's OOM killer (out of memory)".
      # oom_kills_before: the count when the process started; stderr_path: its stderr, for Ruby's report.
      # pid_namespace: the link that says which PID namespace pid belongs to.
      def describe(exit, pid:, stderr_path: nil, oom_kills_before: nil, vmstat: "/proc/vmstat", kmsg: "/dev/kmsg",
        pid_namespace: "/proc/self/ns/pid")
        text = exit.describe
        case exit.signal
        when "ABRT"
          bug = stderr_path && crash_report(stderr_path)
          return text unless bug
          fault = FAULTS.find { |words, _| bug.include?("[BUG] #{words}") }&.last
          "#{fault ? "crashed with #{fault}" : "crashed"} (Ruby's crash report: #{bug[0, 200]}), then #{text} by the report's abort"
        when "KILL"
          "#{text}#{oom_note(pid, oom_kills_before, vmstat, kmsg, pid_namespace)}"
        else
          text
        end
      end

      # The "[BUG]" line of Ruby's crash report in a stderr log, or nil.
      def crash_report(path)
        return nil unless File.exist?(path)
        TextFile.each_line(path) { |line| return line.strip if line.match?(BUG) }
        nil
      end

      def oom_note(pid, before, vmstat, kmsg, pid_namespace)
        after = oom_kills(vmstat)
        return "" unless before && after && after > before
        own_namespace = !initial_pid_namespace?(pid_namespace)
        victims = oom_victims(kmsg) unless own_namespace
        if victims.nil?
          kills = after - before
          unsure = own_namespace ? "the kernel log names pids as the machine's first PID namespace sees them, not as this one does" :
            "the kernel log, not readable here, would say which"
          " and looks like the kernel's OOM killer (out of memory): it killed #{kills} process#{"es" if kills > 1} during the batch " \
            "(oom_kill in /proc/vmstat); #{unsure}"
        elsif victims.include?(pid)
          " from the kernel's OOM killer (out of memory; the kernel log names pid #{pid})"
        else
          ""
        end
      end

      # Whether this process is in the machine's first PID namespace (true where the link is unreadable).
      def initial_pid_namespace?(link = "/proc/self/ns/pid")
        File.readlink(link) == INITIAL_PID_NAMESPACE
      rescue SystemCallError # no /proc: nothing says otherwise
        true
      end

      # Pids the kernel log says the OOM killer killed, or nil when the log is not readable (not root).
      def oom_victims(kmsg)
        pids = []
        File.open(kmsg, File::RDONLY | File::NONBLOCK) do |log|
          loop do
            records = log.read_nonblock(KMSG_BYTES, exception: false)
            break unless records.is_a?(String) # :wait_readable after the last record, nil at the end of a file
            pids.concat(records.scan(/Killed process (\d+) |oom-kill:[^\n]*[,:]pid=(\d+),/).flatten.compact.map(&:to_i))
          rescue Errno::EPIPE # the ring buffer overwrote records while we read; read on from the oldest left
            next
          end
        end
        pids.uniq
      rescue SystemCallError # no /dev/kmsg, or not permitted (dmesg_restrict)
        nil
      end
    end
  end
end
