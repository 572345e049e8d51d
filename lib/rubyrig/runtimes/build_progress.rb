# Tells the user where an interpreter build is: one line per phase with the elapsed time, and while a
# long phase runs, the newest log line on a terminal or a heartbeat line every minute when piped.
module Rubyrig
  module Runtimes
    class BuildProgress
      def initialize(io:, tty:, heartbeat_s: 60, clock: -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) })
        @io = io
        @tty = tty
        @heartbeat_s = heartbeat_s
        @clock = clock
        @started = @phase_started = @last_beat = clock.call
        @phase = "build"
      end

      # A line outside any phase, such as what is about to be built or a change made to the system.
      def note(text)
        clear
        @io.puts(text)
      end

      def phase(name, detail = nil)
        clear
        @phase = name
        @phase_started = @last_beat = @clock.call
        @io.puts("[#{clock_text(elapsed_s)}] #{name}#{": #{detail}" if detail}")
      end

      # Called about once a second while a command of the current phase runs.
      def waiting(last_line)
        if @tty
          @io.print("\r\e[2K  #{@phase} · #{clock_text(elapsed_s)} · #{last_line.to_s.strip[0, 60]}")
          @io.flush
          @status_shown = true
        elsif @clock.call - @last_beat >= @heartbeat_s
          @last_beat = @clock.call
          @io.puts("  #{@phase} still running: #{clock_text(@clock.call - @phase_started)} in this phase, #{clock_text(elapsed_s)} in all")
        end
      end

      def elapsed_s = @clock.call - @started

      def clock_text(seconds)
        seconds = seconds.round
        format("%d:%02d", seconds / 60, seconds % 60)
      end

      # Wipes the status line a terminal shows while a command runs, before other output.
      def clear
        return unless @status_shown
        @io.print("\r\e[2K")
        @status_shown = false
      end
    end
  end
end
