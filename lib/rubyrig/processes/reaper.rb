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

      # Blocks (without holding the GVL) until `pid` exits; returns a Usage. before: the raw usage of
      # the process when it exec'd (self_fields in the forked child), which is taken off its CPU time and
      # context switches, so that they count from exec as its wall time does.
      def wait(pid, before: nil)
        status = Fiddle::Pointer.malloc(STATUS_BYTES, Fiddle::RUBY_FREE)
        rusage = Fiddle::Pointer.malloc(RUSAGE_BYTES, Fiddle::RUBY_FREE)
        loop do
          result = Libc.wait4(pid, status, 0, rusage)
          break if result == pid
          raise Errno::ECHILD, "wait4(#{pid})" unless Fiddle.last_error == Errno::EINTR::Errno
        end
        decode(status.to_str(STATUS_BYTES).unpack1("l"), rusage.to_str(RUSAGE_BYTES).unpack("q18"), before: before)
      end

      # The calling process's own usage so far, as the raw fields of struct rusage.
      def self_fields
        rusage = Fiddle::Pointer.malloc(RUSAGE_BYTES, Fiddle::RUBY_FREE)
        Libc.getrusage_self(rusage)
        rusage.to_str(RUSAGE_BYTES).unpack("q18")
      end

      def decode(raw_status, fields, before: nil)
        exited = (raw_status & 0x7f).zero?
        spent = ->(a, b) { before ? [(a - b).round(6), 0.0].max : a }
        Usage.new(
          status: exited ? (raw_status >> 8) & 0xff : nil,
          signal: exited ? nil : Signal.signame(raw_status & 0x7f),
          cpu_user_s: spent.call(seconds(fields, 0), before && seconds(before, 0)),
          cpu_sys_s: spent.call(seconds(fields, 2), before && seconds(before, 2)),
          max_rss_bytes: fields[4] * 1024,
          voluntary_ctx_switches: spent.call(fields[16], before&.[](16)).to_i,
          involuntary_ctx_switches: spent.call(fields[17], before&.[](17)).to_i
        ).freeze
      end

      def seconds(fields, at) = fields[at] + fields[at + 1] / 1e6
    end
  end
end
