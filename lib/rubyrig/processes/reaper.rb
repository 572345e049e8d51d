# Waits for a child with wait4(2) through Fiddle, so its resource usage (CPU, peak RSS, context
# switches, including the descendants it waited for) comes back with its exit status.
require "fiddle"

module Rubyrig
  module Processes
    module Reaper
      # Resource usage of one reaped child, with units in the names.
      Usage = Struct.new(:status, :signal, :cpu_user_s, :cpu_sys_s, :max_rss_bytes,
        :voluntary_ctx_switches, :involuntary_ctx_switches, keyword_init: true)

      RUSAGE_BYTES = 144 # struct rusage on 64-bit Linux: two timevals and fourteen longs
      STATUS_BYTES = 4

      module_function

      # Blocks (without holding the GVL) until `pid` exits; returns a Usage.
      def wait(pid) = timed_wait(pid).first

      # As wait, and the monotonic clock read as soon as wait4 returned: [Usage, at].
      def timed_wait(pid)
        status = Fiddle::Pointer.malloc(STATUS_BYTES, Fiddle::RUBY_FREE)
        rusage = Fiddle::Pointer.malloc(RUSAGE_BYTES, Fiddle::RUBY_FREE)
        loop do
          result = Libc.wait4(pid, status, 0, rusage)
          break if result == pid
          raise Errno::ECHILD, "wait4(#{pid})" unless Fiddle.last_error == Errno::EINTR::Errno
        end
        at = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        [decode(status.to_str(STATUS_BYTES).unpack1("l"), rusage.to_str(RUSAGE_BYTES).unpack("q18")), at]
      end

      def decode(raw_status, fields)
        exited = (raw_status & 0x7f).zero?
        Usage.new(
          status: exited ? (raw_status >> 8) & 0xff : nil,
          signal: exited ? nil : Signal.signame(raw_status & 0x7f),
          cpu_user_s: seconds(fields, 0),
          cpu_sys_s: seconds(fields, 2),
          max_rss_bytes: fields[4] * 1024,
          voluntary_ctx_switches: fields[16],
          involuntary_ctx_switches: fields[17]
        ).freeze
      end

      def seconds(fields, at) = fields[at] + fields[at + 1] / 1e6
    end
  end
end
