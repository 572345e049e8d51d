require "test_helper"

class BuildProgressTest < Minitest::Test
  def progress(tty:)
    @now = 0.0
    @io = StringIO.new
    Rubyrig::Runtimes::BuildProgress.new(io: @io, tty: tty, heartbeat_s: 60, clock: -> { @now })
  end

  def test_phases_carry_the_elapsed_time_and_piped_output_gets_a_heartbeat_a_minute
    p = progress(tty: false)
    p.phase("configure", "--prefix=/x")
    @now = 75.0
    p.phase("make", "-j2")
    @now = 100.0
    p.waiting("compiling vm.c")
    @now = 136.0
    p.waiting("compiling vm.c")
    assert_equal ["[0:00] configure: --prefix=/x", "[1:15] make: -j2", "  make still running: 1:01 in this phase, 2:16 in all"],
      @io.string.lines.map(&:chomp)
  end

  def test_a_terminal_gets_one_rewritten_status_line_with_the_newest_log_line
    p = progress(tty: true)
    p.phase("make")
    @now = 5.0
    p.waiting("compiling vm.c\n")
    p.note("done")
    assert_equal "[0:00] make\n\r\e[2K  make · 0:05 · compiling vm.c\r\e[2Kdone\n", @io.string
  end
end
