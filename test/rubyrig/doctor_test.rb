require "test_helper"

class DoctorTest < Minitest::Test
  FakeCatalog = Struct.new(:interpreters)

  def host_root(governor: nil, no_turbo: nil, load: "0.10 0.20 0.30 1/100 1")
    root = tmpdir
    write(root, "proc/loadavg", load)
    write(root, "proc/cpuinfo", "model name\t: Test CPU\n")
    write(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "#{governor}\n") if governor
    write(root, "sys/devices/system/cpu/intel_pstate/no_turbo", "#{no_turbo}\n") if no_turbo
    root
  end

  def interpreter(version)
    Rubyrig::Runtimes::Interpreter.new(name: version, path: "/r/#{version}/bin/ruby", engine: "ruby", version: version,
      yjit: true, jemalloc_linked: false)
  end

  # A containment that is not started (no watchdog process): the doctor reads only how it contains.
  def checks(root, interpreters: [interpreter("3.1.2")], path: "/nonexistent", containment: Rubyrig::Processes::Containment.new(cgroups: false))
    settings = Rubyrig::Settings.from_env({"PATH" => path, "HOME" => tmpdir})
    Rubyrig::Doctor.new(settings: settings, catalog: FakeCatalog.new(interpreters), host: Rubyrig::Processes::Host.new(root: root),
      containment: containment).checks
  end

  def find(list, name) = list.find { |c| c.name == name }

  def test_missing_tools_name_the_package
    wrk = find(checks(host_root), "wrk")
    assert_equal :missing, wrk.state
    assert_equal "apt-get install wrk", wrk.fix
  end

  def test_tools_on_path_are_ok
    assert_equal :ok, find(checks(host_root, path: "/usr/bin:/bin"), "make").state
  end

  def test_powersave_governor_and_turbo_are_flagged_with_fixes
    list = checks(host_root(governor: "powersave", no_turbo: "0"))
    assert_equal "cpupower frequency-set -g performance", find(list, "governor").fix
    assert_equal :warn, find(list, "turbo").state
    list = checks(host_root(governor: "performance", no_turbo: "1"))
    assert_equal :ok, find(list, "governor").state
    assert_equal :ok, find(list, "turbo").state
  end

  def test_a_busy_host_is_flagged
    load = find(checks(host_root(load: "9.00 5.00 1.00 1/100 1")), "load")
    assert_equal :warn, load.state
    assert_match(/stop other work/, load.fix)
  end

  def test_a_single_cruby_suggests_building_another
    list = checks(host_root)
    assert_equal "rubyrig build 3.3.8", find(list, "second CRuby").fix
    assert_nil find(checks(host_root, interpreters: [interpreter("3.1.2"), interpreter("3.3.8")]), "second CRuby")
  end

  def test_containment_without_a_cgroup_names_its_mechanisms_what_escapes_them_and_how_to_get_a_cgroup
    check = find(checks(host_root), "containment")
    assert_equal :ok, check.state
    assert_match(/\Aprocess groups and their descendants, and the environment marker RUBYRIG_CONTAINMENT \(no cgroup v2/, check.detail)
    assert_match(/leaves both its parent and its process group .* and rewrites its environment/, check.detail)
    assert_match(/systemd-run --user --scope -p Delegate=yes/, check.detail)
    assert_nil check.fix
  end
end
