require "test_helper"

# Real processes that leave their group and session: stopping their Child, kill -9 of the rubyrig that
# owns them (its watchdog sweeps), and kill -9 of the owner and its watchdog together (the next rubyrig
# reaps), with a cgroup when this machine lets rubyrig create one, and with the environment marker alone.
class ContainmentTest < Minitest::Test
  include SlowTest

  ESCAPES = "sleep 351 & setsid sleep 352 & sleep 353"
  SLEEPS = %w[351 352 353].freeze

  def modes
    [false, (true if Rubyrig::Processes::Containment.cgroup_base && cgroup_writable?)].compact
  end

  def cgroup_writable? = File.writable?(File.join(Rubyrig::Processes::Containment.cgroup_base, "cgroup.procs"))

  # Live sleeps of this test (any parent, any group): pid => argument.
  def sleeps(marker_prefix)
    Dir.glob("/proc/[0-9]*").each_with_object({}) do |dir, found|
      argv = File.binread("#{dir}/cmdline").split("\0")
      next unless argv.first == "sleep" && SLEEPS.include?(argv[1])
      next unless File.binread("#{dir}/stat").split(") ").last.split.first != "Z"
      next unless File.binread("#{dir}/environ").include?("RUBYRIG_CONTAINMENT=#{marker_prefix}")
      found[File.basename(dir).to_i] = argv[1]
    rescue SystemCallError # exited while we looked
      nil
    end
  end

  def gone_within(seconds, marker_prefix)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
    sleep 0.05 until sleeps(marker_prefix).empty? || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
    sleeps(marker_prefix)
  end

  # A process that owns a containment and a Child that leaves three sleeps, two of them outside its
  # group; returns [owner pid, its token, its watchdog's pid] once the sleeps run (or the block holds).
  def start_owner(cgroups, command = ESCAPES)
    dir = tmpdir
    script = write(dir, "owner.rb", <<~RUBY)
      $LOAD_PATH.unshift(#{File.join(RubyrigTest::ROOT, "lib").dump})
      require "rubyrig"
      containment = Rubyrig::Processes::Containment.new(cgroups: #{cgroups}).start
      Rubyrig::Processes::Child.spawn(["bash", "-c", #{command.dump}], containment: containment)
      File.write(#{File.join(dir, "ids").dump}, [containment.token, containment.watchdog_pid].join(" "))
      sleep
    RUBY
    owner = Process.spawn(RbConfig.ruby, script, pgroup: true)
    (@owners ||= []) << owner
    ids = wait_for { File.size?(File.join(dir, "ids")) && Rubyrig::Processes::TextFile.read(File.join(dir, "ids")).split }
    block_given? ? wait_for { yield } : wait_for { sleeps("#{ids[0]}.").size == 3 }
    [owner, ids[0], ids[1].to_i]
  end

  # Sleeps whose durations only this test process uses, and that carry no containment marker.
  def unmarked_durations = %w[1 2 3].map { |n| "1#{Process.pid}#{n}" }

  def unmarked
    Dir.glob("/proc/[0-9]*").filter_map do |dir|
      argv = File.binread("#{dir}/cmdline").split("\0")
      next unless argv.first == "sleep" && unmarked_durations.include?(argv[1])
      next if File.binread("#{dir}/stat").split(") ").last.start_with?("Z")
      next if File.binread("#{dir}/environ").include?("RUBYRIG_CONTAINMENT=")
      File.basename(dir).to_i
    rescue SystemCallError # exited while we looked
      nil
    end
  end

  # The pid, as this namespace sees it, of the live process with exactly this argv.
  def host_pid_of(argv)
    Dir.glob("/proc/[0-9]*").each do |dir|
      return File.basename(dir).to_i if File.binread("#{dir}/cmdline").split("\0") == argv
    rescue SystemCallError # exited while we looked
      next
    end
    flunk "no process #{argv.inspect}"
  end

  # What a failing test left of its unmarked sleeps.
  def kill_unmarked
    unmarked.each do |pid|
      Process.kill("KILL", pid)
    rescue Errno::ESRCH # exited meanwhile
      nil
    end
  end

  # An owner that a failing test did not get to kill must not outlive the test.
  def teardown
    (@owners || []).each do |pid|
      Process.kill("KILL", pid)
      Process.wait(pid)
    rescue Errno::ESRCH, Errno::ECHILD # the test killed and reaped it
      nil
    end
    super
  end

  def test_stopping_a_child_kills_the_descendants_that_left_its_group
    modes.each do |cgroups|
      containment = Rubyrig::Processes::Containment.new(cgroups: cgroups).start
      child = Rubyrig::Processes::Child.spawn(["bash", "-c", ESCAPES], containment: containment)
      wait_for { sleeps("#{containment.token}.").size == 3 }
      assert_equal 1, sleeps("#{containment.token}.").count { |pid, _| Process.getpgid(pid) != child.pgid }, "setsid left the group"
      child.stop
      assert_empty gone_within(10, "#{containment.token}."), "cgroups: #{cgroups}"
      assert_nil containment.cgroup && Dir.glob(File.join(containment.cgroup, "child-*")).first, "the child's cgroup is removed"
    end
  end

  def test_kill_nine_of_the_owner_leaves_nothing_its_watchdog_kills_the_rest
    modes.each do |cgroups|
      owner, token, watchdog = start_owner(cgroups)
      Process.kill("KILL", owner)
      Process.wait(owner)
      assert_empty gone_within(30, "#{token}."), "cgroups: #{cgroups}"
      wait_for(timeout_s: 30) { !File.exist?("/proc/#{watchdog}") || File.binread("/proc/#{watchdog}/stat").split(") ").last.start_with?("Z") }
    end
  end

  # Processes whose environment no longer shows the marker (as redis-server's title erases it), and
  # without a cgroup: one in the child's process group, one in a session of its own under a parent of
  # the run. The watchdog finds them by the group rubyrig named to it and by their parent.
  def test_kill_nine_of_the_owner_kills_processes_without_the_marker_by_their_group_and_parent
    a, b, c = unmarked_durations
    owner, = start_owner(false, "env -i sleep #{a} & setsid env -i sleep #{b} & exec env -i sleep #{c}") { unmarked.size == 3 }
    assert_equal 1, unmarked.count { |pid| Process.getsid(pid) == pid }, "one left its group and session"
    Process.kill("KILL", owner)
    Process.wait(owner)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 15
    sleep 0.05 until unmarked.empty? || Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
    assert_empty unmarked, "alive 15 s after the owner's kill -9"
  ensure
    kill_unmarked
  end

  # Without a cgroup, a descendant in a session of its own whose environment lost the marker: stopping
  # the child kills it too (it was noted before the TERM, while its parent still held it).
  def test_stopping_a_child_without_a_cgroup_kills_an_unmarked_descendant_that_left_its_group
    _, b, c = unmarked_durations
    containment = Rubyrig::Processes::Containment.new(cgroups: false).start
    child = Rubyrig::Processes::Child.spawn(["bash", "-c", "setsid env -i sleep #{b} & exec env -i sleep #{c}"], containment: containment)
    wait_for { unmarked.size == 2 }
    child.stop
    wait_for(timeout_s: 10, message: "no unmarked sleep left") { unmarked.empty? }
  ensure
    containment&.close
    kill_unmarked
  end

  def test_the_next_start_reaps_what_a_dead_owner_and_its_dead_watchdog_left
    modes.each do |cgroups|
      owner, token, watchdog = start_owner(cgroups)
      Process.kill("KILL", watchdog)
      Process.kill("KILL", owner)
      Process.wait(owner)
      sleep 0.5
      assert_equal 3, sleeps("#{token}.").size, "without the watchdog the sleeps stay (the test's premise)"
      Rubyrig::Processes::Containment.new(cgroups: cgroups).start
      assert_empty gone_within(10, "#{token}."), "cgroups: #{cgroups}"
      assert_empty Dir.glob(File.join(Rubyrig::Processes::Containment.cgroup_base.to_s, "rubyrig-#{token}")) if cgroups
    end
  end

  # A rubyrig in a chroot or container with its own PID namespace shares this machine's cgroups and
  # shows in its /proc, but its pids mean nothing here: another rubyrig's start must not take it for
  # a dead one and reap its processes and cgroup (as it did while a fresh-machine check ran beside CI).
  def test_the_next_start_leaves_a_rubyrig_in_another_pid_namespace_alone
    needs_root("a PID namespace")
    modes.each do |cgroups|
      dir = tmpdir
      script = write(dir, "owner.rb", <<~RUBY)
        $LOAD_PATH.unshift(#{File.join(RubyrigTest::ROOT, "lib").dump})
        require "rubyrig"
        containment = Rubyrig::Processes::Containment.new(cgroups: #{cgroups}).start
        Rubyrig::Processes::Child.spawn(["bash", "-c", #{ESCAPES.dump}], containment: containment)
        File.write(#{File.join(dir, "ids").dump}, [containment.token, containment.cgroup].join(" "))
        sleep
      RUBY
      # bash stays the namespace's pid 1 (whose end kills all in it), so that the owner can be killed
      # alone and its watchdog sweeps. It mounts the namespace's own /proc, as a container does, on a
      # private copy of this /proc (unshare's --mount-proc would first make "/" private, which fails in
      # a chroot such as bin/fresh-machine-check's, where "/" is no mount point).
      own_proc = "mount --make-private /proc && mount -t proc proc /proc"
      (@owners ||= []) << Process.spawn("unshare", "--pid", "--fork", "--kill-child", "--mount", "--propagation", "unchanged",
        "bash", "-c", "#{own_proc} && #{RbConfig.ruby} #{script}; sleep 60", pgroup: true)
      token, cgroup = wait_for { File.size?(File.join(dir, "ids")) && Rubyrig::Processes::TextFile.read(File.join(dir, "ids")).split }
      wait_for { sleeps("#{token}.").size == 3 }
      Rubyrig::Processes::Containment.new(cgroups: cgroups).start
      sleep 0.5
      assert_equal 3, sleeps("#{token}.").size, "cgroups: #{cgroups}"
      assert File.directory?(cgroup), "the other namespace's cgroup stays" if cgroup
      Process.kill("KILL", host_pid_of([RbConfig.ruby, script]))
      assert_empty gone_within(30, "#{token}."), "its own watchdog sweeps: cgroups: #{cgroups}"
      wait_for(timeout_s: 30) { !cgroup || !File.directory?(cgroup) }
    end
  end

  # What rubyrig does when it exits normally: by the time close returns, nothing is left.
  def test_closing_lets_the_watchdog_sweep_and_waits_for_it
    modes.each do |cgroups|
      containment = Rubyrig::Processes::Containment.new(cgroups: cgroups).start
      Rubyrig::Processes::Child.spawn(["bash", "-c", ESCAPES], containment: containment)
      wait_for { sleeps("#{containment.token}.").size == 3 }
      containment.close
      assert_empty sleeps("#{containment.token}."), "cgroups: #{cgroups}"
      refute File.exist?("/proc/#{containment.watchdog_pid}"), "the watchdog has exited and been reaped"
      refute File.exist?(containment.cgroup), "the run's cgroup is removed" if containment.cgroup
    end
  end

  def test_a_child_carries_its_marker_after_any_it_inherited
    containment = Rubyrig::Processes::Containment.new(cgroups: false).start
    out = File.join(tmpdir, "env")
    Rubyrig::Processes::Child.spawn(["sh", "-c", "echo $RUBYRIG_CONTAINMENT > #{out}"], containment: containment).wait
    assert_match(/\A#{containment.token}\.\d+\n\z/, Rubyrig::Processes::TextFile.read(out))
    slot = containment.slot
    assert_equal "1-2.3 #{slot.marker}", slot.env_value("1-2.3")
  end

  def test_with_cgroups_each_child_runs_in_a_cgroup_of_its_own
    skip "no cgroup v2 that rubyrig may create cgroups in here" unless modes.include?(true)
    containment = Rubyrig::Processes::Containment.new.start
    children = Array.new(2) { Rubyrig::Processes::Child.spawn(["sleep", "30"], containment: containment) }
    places = children.map { |c| Rubyrig::Processes::TextFile.read("/proc/#{c.pid}/cgroup")[/^0::(\S+)$/, 1] }
    assert_equal 2, places.uniq.size, places.inspect
    places.each { |place| assert_match(%r{/rubyrig-#{containment.token}/child-\d+\z}, place) }
  ensure
    children&.each(&:stop)
  end
end
