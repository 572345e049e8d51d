require "test_helper"

# What a real child process receives of this environment.
class InheritedEnvIntegrationTest < Minitest::Test
  include SlowTest

  # Child adds only its containment marker (Sweep), by which nothing of a run outlives rubyrig.
  def test_a_child_process_receives_nothing_else_of_this_environment
    out, = Rubyrig::Processes::Child.capture(["/usr/bin/env"], env: Rubyrig::Processes::InheritedEnv.withheld)
    names = out.lines.map { |l| l.split("=", 2).first }
    assert_includes names, "PATH"
    assert(names.all? { |n| Rubyrig::Processes::InheritedEnv.passed?(n) || n == Rubyrig::Processes::Sweep::ENV_KEY }, names.inspect)
  end
end
