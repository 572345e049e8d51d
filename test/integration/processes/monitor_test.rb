require "test_helper"

class MonitorTest < Minitest::Test
  include SlowTest

  def test_samples_the_whole_tree
    child = Rubyrig::Processes::Child.spawn(["sh", "-c", "ruby -e 'a = \"x\" * 40_000_000; sleep 30' & ruby -e 'sleep 30' & wait"])
    monitor = Rubyrig::Processes::Monitor.new(child.pid, interval_s: 0.05).start
    reading = wait_for(timeout_s: 30) { (r = monitor.sample) && r.rss_bytes > 65_000_000 && r.pids.size == 3 && r }
    assert_equal 3, reading.pids.size, "sh and its two ruby children"
    assert_operator reading.threads, :>=, 3
    assert_operator monitor.pss_bytes, :>, 40_000_000
    monitor.stop
    assert_operator monitor.peak_rss_bytes, :>=, reading.rss_bytes
    assert_operator monitor.samples_taken, :>, 3
  ensure
    child&.stop
  end

  # A measured run's monitor waits before its first sample; a tree gone by then has none, and no peak.
  def test_the_first_sample_waits_and_a_tree_gone_before_has_no_peak
    monitor = Rubyrig::Processes::Monitor.new(interval_s: 0.05, first_sample_s: 0.5).start
    child = Rubyrig::Processes::Child.spawn(["sleep", "2"])
    monitor.watch(child.pid)
    sleep 0.2
    assert_equal 0, monitor.samples_taken, "nothing before first_sample_s"
    wait_for(timeout_s: 10) { monitor.samples_taken.positive? }
    assert_operator monitor.peak_rss_bytes, :>, 0
    short = Rubyrig::Processes::Monitor.new(interval_s: 0.05, first_sample_s: 0.5).start
    done = Rubyrig::Processes::Child.spawn(["true"])
    short.watch(done.pid)
    done.wait
    short.stop
    assert_equal 0, short.samples_taken
    assert_nil short.peak_rss_bytes
  ensure
    monitor&.stop
    child&.stop
    done&.stop
  end

  def test_a_finished_tree_gives_no_sample
    child = Rubyrig::Processes::Child.spawn(["true"])
    child.wait
    assert_nil Rubyrig::Processes::Monitor.new(child.pid).sample
  end

  # Its thread of this process: nice 19 (field 19 of the thread's stat) and the CPUs the root may not use.
  def test_the_sampling_thread_takes_the_lowest_priority_off_a_pinned_roots_cpus
    others = Rubyrig::Processes::CpuSplit.allowed - [0]
    skip "one CPU: nowhere else to sample from" if others.empty?
    child = Rubyrig::Processes::Child.spawn(["sleep", "5"], cpus: "0")
    monitor = Rubyrig::Processes::Monitor.new(child.pid, interval_s: 0.05).start
    wait_for { monitor.samples_taken.positive? }
    threads = Dir.glob("/proc/self/task/*").map do |task|
      [File.binread("#{task}/stat").split(") ").last.split[16].to_i, File.read("#{task}/status")[/^Cpus_allowed_list:\s*(\S+)/, 1]]
    end
    assert_includes threads, [19, Rubyrig::Processes::CpuList.format(others)]
  ensure
    monitor&.stop
    child&.stop
  end

  # Started before its root exists (as a measured run starts it), it samples nothing until told the root,
  # then samples it; and one stopped before it was told ends at once.
  def test_a_monitor_started_before_its_root_samples_it_once_named
    idle = Rubyrig::Processes::Monitor.new(interval_s: 0.05).start
    idle.stop
    assert_equal 0, idle.samples_taken
    monitor = Rubyrig::Processes::Monitor.new(interval_s: 0.05).start
    child = Rubyrig::Processes::Child.spawn(["sleep", "5"])
    monitor.watch(child.pid)
    wait_for { monitor.samples_taken.positive? }
    assert_equal [child.pid], monitor.last.pids
  ensure
    monitor&.stop
    child&.stop
  end
end
