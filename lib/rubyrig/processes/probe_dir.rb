# Where the probe in a measured process writes its files (RUBYRIG_PROBE_DIR): a private directory on
# tmpfs where the host has one, because creating a file on a disk file system is work the measured
# process does inside its own measurement (0.2–0.6 ms of its CPU time on this machine's ext4; on tmpfs
# about 15 µs: bench/probe-cost). #keep moves the files into the batch's artifacts once the process
# has ended, where they are read, and removes the directory; without tmpfs they are written there. The
# tmpfs path ends in the artifacts path, so a measured process's environment still names its run. What
# a rubyrig killed before #keep (kill -9) left there, the next one removes.
require "fileutils"
require "tmpdir"

module Rubyrig
  module Processes
    class ProbeDir
      TMPFS = "/dev/shm"
      PREFIX = "rubyrig-probe-"

      # kept: the artifacts directory the files end in; tmpfs: a tmpfs mount point, or nil for none.
      def initialize(kept:, tmpfs: self.class.tmpfs)
        @kept = kept
        FileUtils.mkdir_p(@kept)
        self.class.sweep(tmpfs) if tmpfs
        @root = tmpfs && Dir.mktmpdir("#{PREFIX}#{Sweep.pid_namespace}-#{Process.pid}-", tmpfs)
        @path = @root ? File.join(@root, File.expand_path(@kept)).tap { |d| FileUtils.mkdir_p(d) } : @kept
      end

      # What the measured processes write into.
      attr_reader :path

      # Moves what the processes wrote into the artifacts (a copy: another file system) and removes the
      # tmpfs directory; returns the artifacts directory. Safe to repeat.
      def keep
        return @kept unless @root && File.directory?(@root)
        Dir.children(@path).each { |name| FileUtils.mv(File.join(@path, name), @kept) }
        FileUtils.rm_rf(@root)
        @kept
      end

      # Removes the directories of rubyrig processes that have ended, this user's only: those named by a
      # pid of this PID namespace. A rubyrig in a container or chroot that shares /dev/shm names its own
      # by its namespace, and its pids mean nothing here (one in a chroot beside a run removed the run's
      # directories, and its probes wrote nothing).
      def self.sweep(tmpfs)
        mine = /\A#{PREFIX}#{Sweep.pid_namespace}-(\d+)-/
        Dir.glob(File.join(tmpfs, "#{PREFIX}*")).each do |dir|
          pid = File.basename(dir)[mine, 1]
          FileUtils.rm_rf(dir) if pid && File.owned?(dir) && !alive?(pid.to_i)
        end
      end

      def self.alive?(pid)
        Process.kill(0, pid)
        true
      rescue Errno::ESRCH # no such process
        false
      rescue Errno::EPERM # someone else's: alive
        true
      end

      # TMPFS when it is a tmpfs mount this user may write to, else nil.
      def self.tmpfs
        return nil unless File.directory?(TMPFS) && File.writable?(TMPFS)
        mounted = TextFile.read("/proc/self/mounts").each_line.any? { |line| line.split[1..2] == [TMPFS, "tmpfs"] }
        mounted ? TMPFS : nil
      rescue SystemCallError # no /proc: write into the artifacts
        nil
      end
    end
  end
end
