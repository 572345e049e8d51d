# The probes write where it costs the measured process least (tmpfs), and their files end in the
# batch's artifacts all the same, with nothing left behind.
require "test_helper"

class ProbeDirTest < Minitest::Test
  def test_files_written_on_tmpfs_end_in_the_artifacts_and_the_directory_goes
    tmpfs = tmpdir
    kept = File.join(tmpdir, "probe")
    dir = Rubyrig::Processes::ProbeDir.new(kept: kept, tmpfs: tmpfs)
    assert dir.path.start_with?(tmpfs)
    assert dir.path.end_with?(kept), "the environment of a measured process still names its run"
    root = File.join(tmpfs, Dir.children(tmpfs).first)
    assert_equal "700", format("%o", File.stat(root).mode & 0o777), "private to the user"
    File.write(File.join(dir.path, "probe-1.json"), "{}")
    File.write(File.join(dir.path, "probe-1.boot.json"), "{}")
    assert_equal kept, dir.keep
    assert_equal ["probe-1.boot.json", "probe-1.json"], Dir.children(kept).sort
    assert_empty Dir.children(tmpfs)
    assert_equal kept, dir.keep, "safe to repeat"
  end

  def test_without_tmpfs_the_probes_write_into_the_artifacts
    kept = File.join(tmpdir, "probe")
    dir = Rubyrig::Processes::ProbeDir.new(kept: kept, tmpfs: nil)
    assert_equal kept, dir.path
    File.write(File.join(dir.path, "probe-1.json"), "{}")
    assert_equal kept, dir.keep
    assert_equal ["probe-1.json"], Dir.children(kept)
  end

  # A pid above the kernel's largest (2**22) never runs, so its directory is a dead rubyrig's; one named
  # by another PID namespace (a rubyrig in a chroot or container sharing /dev/shm) is left alone.
  def test_a_dead_rubyrigs_directory_goes_and_a_live_ones_and_another_namespaces_stay
    tmpfs = tmpdir
    ns = Rubyrig::Processes::Sweep.pid_namespace
    dead = File.join(tmpfs, "rubyrig-probe-#{ns}-#{2**22 + 1}-20261126-1-abc")
    live = File.join(tmpfs, "rubyrig-probe-#{ns}-#{Process.pid}-20261126-1-abc")
    other = File.join(tmpfs, "rubyrig-probe-#{ns + 1}-#{2**22 + 1}-20261126-1-abc")
    [dead, live, other].each { |d| FileUtils.mkdir_p(File.join(d, "x")) }
    Rubyrig::Processes::ProbeDir.new(kept: File.join(tmpdir, "probe"), tmpfs: tmpfs)
    refute File.exist?(dead)
    assert File.exist?(live)
    assert File.exist?(other), "another PID namespace's pids mean nothing here"
  end
end
