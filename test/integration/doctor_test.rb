require "test_helper"

# The doctor on this machine's real containment: with a cgroup v2 to create cgroups in, it is ok.
class DoctorIntegrationTest < Minitest::Test
  include SlowTest

  def test_containment_by_cgroup_is_ok
    containment = Rubyrig::Processes::Containment.new.start
    skip "no cgroup v2 that rubyrig may create cgroups in here" unless containment.cgroup
    settings = Rubyrig::Settings.from_env({"PATH" => "/nonexistent", "HOME" => tmpdir})
    doctor = Rubyrig::Doctor.new(settings: settings, catalog: Struct.new(:interpreters).new([]), host: Rubyrig::Processes::Host.new,
      containment: containment)
    check = doctor.checks.find { |c| c.name == "containment" }
    assert_equal :ok, check.state
    assert_match(%r{\Acgroup v2 \(/\S+/rubyrig-#{containment.token}\)}, check.detail)
  end
end
