require "test_helper"

# How a process ended, from a real Ruby crash: the fault named in its crash report.
class ExitCauseIntegrationTest < Minitest::Test
  include SlowTest

  def test_a_real_ruby_crash_names_the_fault_from_its_crash_report
    err = File.join(tmpdir, "stderr.log")
    child = Rubyrig::Processes::Child.spawn(["ruby", "-e", "Process.kill(:SEGV, Process.pid); sleep 5"], err: err)
    exit = child.wait
    child.stop
    assert_equal "ABRT", exit.signal, "Ruby's crash report ends in abort()"
    text = Rubyrig::Processes::ExitCause.describe(exit, pid: child.pid, stderr_path: err)
    assert_match(/\Acrashed with SIGSEGV \(Ruby's crash report: -e:1: \[BUG\] Segmentation fault at 0x\h+\), then killed by SIGABRT by the report's abort\z/, text)
  end
end
