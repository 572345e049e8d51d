require "test_helper"

# wait4 on a real child: the clock is read once it has returned, after the child's own last reading.
class ReaperWaitTest < Minitest::Test
  def test_the_clock_is_read_after_the_child_has_exited
    reader, writer = IO.pipe
    pid = Process.spawn(RbConfig.ruby, "-e", "$stdout.write([Process.clock_gettime(Process::CLOCK_MONOTONIC)].pack('E'))", out: writer)
    writer.close
    usage, at = Rubyrig::Processes::Reaper.timed_wait(pid)
    assert_equal 0, usage.status
    assert_operator at, :>, reader.read.unpack1("E"), "the child's last reading comes before its exit, and the exit before this one"
  end
end
