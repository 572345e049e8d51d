# Shows where a run is: the current cell, batch i/n, elapsed time and ETA. On a terminal it rewrites
# one status line; when piped it prints one plain line per finished batch.
module Rubyrig
  class Progress
    def initialize(io:, tty:, clock: -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) })
      @io = io
      @tty = tty
      @clock = clock
    end

    def start(total:, done:)
      @total = total
      @done = done
      @done_at_start = done
      @started = @clock.call
      @io.puts("Resuming: #{done} of #{total} batches already done") if done.positive?
    end

    # More batches were planned (--until decided added rounds).
    def grow(total:)
      @total = total
    end

    # A one-off message between batches, such as a gem installation.
    def note(text)
      @io.puts(Printable.line(text))
    end

    def batch_started(batch)
      return unless @tty
      status(Printable.line("[#{@done + 1}/#{@total}] #{batch.cell.key} · batch #{batch.number} · #{timing}"))
    end

    def batch_finished(batch, trial)
      @done += 1
      line = "[#{@done}/#{@total}] #{trial.status.ljust(6)} #{batch.cell.key} · batch #{batch.number} · #{timing}"
      line += " · #{trial.reason}" if trial.failed? && trial.reason
      line = Printable.line(line)
      @tty ? status(line, final: trial.failed?) : @io.puts(line)
    end

    def finish
      @io.print("\r\e[2K") if @tty
      @io.puts("Done: #{@done} batches in #{clock_text(@clock.call - @started)}")
    end

    def interrupted
      @io.print("\r\e[2K") if @tty
      @io.puts("Interrupted after #{@done} of #{@total} batches") if @total
    end

    private

    def timing
      elapsed = @clock.call - @started
      measured = @done - @done_at_start
      eta = measured.positive? ? elapsed / measured * (@total - @done) : nil
      "#{clock_text(elapsed)} elapsed#{", ETA #{clock_text(eta)}" if eta}"
    end

    def status(line, final: false)
      @io.print("\r\e[2K#{line}")
      @io.print("\n") if final
      @io.flush
    end

    def clock_text(seconds)
      seconds = seconds.round
      format("%d:%02d", seconds / 60, seconds % 60)
    end
  end
end
