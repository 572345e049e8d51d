# Loaded first by the unit tier (bin/test --unit, rake test:unit): starting a process there raises, so
# the tier stays pure and fast and a test that needs a real process goes to test/integration/. Nor does
# it need a tool: its PATH holds none, so a test that looks one up (wrk, httperf) gives its own PATH.
module RubyrigTest
  # Not a StandardError: library code's rescues must not swallow it.
  class ProcessStarted < SecurityError
    def initialize(how)
      super("the unit tier starts no process (#{how}): move the test to test/integration/ or make it pure")
    end
  end

  # Every way Ruby starts a process (Open3 and Rubyrig::Processes::Child go through spawn).
  module NoProcesses
    %i[spawn system exec fork ` popen].each do |name|
      define_method(name) { |*, **| raise ProcessStarted, name.to_s }
    end
  end
end

Kernel.prepend(RubyrigTest::NoProcesses)
Process.singleton_class.prepend(RubyrigTest::NoProcesses)
IO.singleton_class.prepend(RubyrigTest::NoProcesses)

ENV["PATH"] = "/nonexistent/the-unit-tier-needs-no-tool"
