# What the fault tests share: a real exe/rubyrig process, the processes of its run found by scanning
# /proc (its descendants, and anything carrying its containment marker), and kill -9 with a check that
# none of them is left.
require "psych"

module FaultsSupport
  # Generous: a busy 2-core host may take long to boot Puma or Sidekiq, never this long.
  READY_S = 300
  # How long the kernel and the watchdog may take to end every process after rubyrig's death.
  GONE_S = 15

  # A process as /proc shows it now: pid, start time (to tell a reused pid apart) and command line.
  Seen = Struct.new(:pid, :started, :argv, keyword_init: true) do
    def to_s = "#{pid} #{argv.join(" ")}"
  end

  def seen(pid)
    stat = File.binread("/proc/#{pid}/stat")
    fields = stat[(stat.rindex(")") + 2)..].split
    return nil if fields[0] == "Z"
    Seen.new(pid: pid, started: fields[19], argv: File.binread("/proc/#{pid}/cmdline").split("\0"))
  rescue SystemCallError # exited while we looked
    nil
  end

  def still_running?(process) = seen(process.pid)&.started == process.started

  # Every live descendant of pid, from the kernel's lists of children.
  def descendants(pid)
    children = Dir.glob("/proc/#{pid}/task/*/children").flat_map { |f| Rubyrig::Processes::TextFile.read(f).split.map(&:to_i) }
    children.filter_map { |c| seen(c) } + children.flat_map { |c| descendants(c) }
  rescue SystemCallError # the process exited while being listed
    []
  end

  # "<pid>-<start ticks>" of a running rubyrig: how its containment markers begin.
  def run_token(pid) = "#{pid}-#{seen(pid).started}"

  # Live processes whose environment carries the run's containment marker (inherited by every process
  # a process of the run starts, whatever group or session it moves to).
  def marked_processes(token)
    Dir.glob("/proc/[0-9]*").filter_map do |dir|
      environ = File.binread("#{dir}/environ")
      next unless environ.split("\0").any? { |e| e.start_with?("RUBYRIG_CONTAINMENT=") && e.include?("#{token}-") }
      seen(File.basename(dir).to_i)
    rescue SystemCallError # exited while we looked
      nil
    end
  end

  # Starts exe/rubyrig with args; returns its pid. Its output goes to dir/rubyrig.out and rubyrig.err.
  def start_rubyrig(*args, dir:, env: {})
    Process.spawn(ENV.to_h.merge("RUBYRIG_CACHE_DIR" => cache_dir).merge(env), RbConfig.ruby, RubyrigTest::EXE, *args,
      out: File.join(dir, "rubyrig.out"), err: File.join(dir, "rubyrig.err"), pgroup: true)
  end

  # Waits until the block finds what it looks for among rubyrig's descendants (rubyrig must not end
  # first), kill -9s rubyrig, and asserts that every process of the run ends: each descendant seen
  # just before the kill, the watchdog among them, and every process with the run's marker.
  def kill_nine_leaves_nothing(pid, dir:, ready_s: READY_S)
    token = run_token(pid)
    deadline = now + ready_s
    until (found = yield(descendants(pid)))
      flunk "rubyrig ended before the fault could be injected: #{Rubyrig::Processes::TextFile.read(File.join(dir, "rubyrig.err"))[-2000..]}" if Process.wait(pid, Process::WNOHANG)
      flunk "not ready within #{ready_s} s: #{descendants(pid).map(&:to_s)}" if now > deadline
      sleep 0.1
    end
    before = descendants(pid)
    # Named rubyrig-watchdog once it has booted; still booting on a busy host, it shows its script.
    watchdog = before.find { |p| p.argv.first.to_s.start_with?("rubyrig-watchdog") || p.argv.any? { |a| a.end_with?("/watchdog.rb") } }
    assert watchdog, "no watchdog among #{before.map(&:to_s)}"
    Process.kill("KILL", pid)
    Process.wait(pid)
    left = []
    deadline = now + GONE_S
    loop do
      left = (before.select { |p| still_running?(p) } + marked_processes(token)).uniq(&:pid)
      break if left.empty? || now > deadline
      sleep 0.1
    end
    assert_empty left.map(&:to_s), "processes of the run outlived rubyrig's kill -9 by #{GONE_S} s"
    [found, before]
  ensure
    begin
      Process.kill("KILL", pid)
      Process.wait(pid)
    rescue Errno::ESRCH, Errno::ECHILD # already killed and reaped above
      nil
    end
  end

  def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
end
